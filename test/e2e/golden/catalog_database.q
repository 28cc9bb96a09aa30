# catalog_database.q - CREATE/DROP/SHOW/USE CATALOG and DATABASE, SHOW CURRENT

SHOW CATALOGS;
+-----------------+
|    catalog name |
+-----------------+
| default_catalog |
+-----------------+
1 row in set
!ok

SHOW CURRENT CATALOG;
+----------------------+
| current catalog name |
+----------------------+
|      default_catalog |
+----------------------+
1 row in set
!ok

CREATE DATABASE db1 COMMENT 'first';
[INFO] Execute statement succeeded.
!info

CREATE DATABASE db1;
[ERROR] Could not execute SQL statement. Reason:
Database db1 already exists in Catalog default_catalog.
!error

CREATE DATABASE IF NOT EXISTS db1;
[INFO] Execute statement succeeded.
!info

SHOW DATABASES;
+------------------+
|    database name |
+------------------+
|              db1 |
| default_database |
+------------------+
2 rows in set
!ok

USE db1;
[INFO] Execute statement succeeded.
!info

SHOW CURRENT DATABASE;
+-----------------------+
| current database name |
+-----------------------+
|                   db1 |
+-----------------------+
1 row in set
!ok

USE nodb;
[ERROR] Could not execute SQL statement. Reason:
A database with name [nodb] does not exist in the catalog: [default_catalog].
!error

CREATE CATALOG mem WITH ('type' = 'in-memory');
[INFO] Execute statement succeeded.
!info

CREATE CATALOG c2 WITH ('type' = 'hive');
[ERROR] Could not execute SQL statement. Reason:
Could not find any factory for identifier 'hive' that implements 'CatalogFactory'.
!error

CREATE CATALOG files WITH ('type' = 'file', 'path' = '$TMP/other');
[INFO] Execute statement succeeded.
!info

SHOW CATALOGS LIKE '%a%';
+-----------------+
|    catalog name |
+-----------------+
| default_catalog |
+-----------------+
1 row in set
!ok

USE CATALOG mem;
[INFO] Execute statement succeeded.
!info

SHOW CURRENT DATABASE;
+-----------------------+
| current database name |
+-----------------------+
|      default_database |
+-----------------------+
1 row in set
!ok

USE CATALOG default_catalog;
[INFO] Execute statement succeeded.
!info

USE db1;
[INFO] Execute statement succeeded.
!info

DROP DATABASE db1;
[ERROR] Could not execute SQL statement. Reason:
Cannot drop a database which is currently in use.
!error

USE default_database;
[INFO] Execute statement succeeded.
!info

DROP DATABASE db1;
[INFO] Execute statement succeeded.
!info

DROP DATABASE IF EXISTS db1;
[INFO] Execute statement succeeded.
!info

DROP CATALOG mem;
[INFO] Execute statement succeeded.
!info
