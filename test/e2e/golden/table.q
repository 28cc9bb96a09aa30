# table.q - CREATE/DROP/SHOW/ALTER/DESCRIBE TABLE, temporary tables, SHOW CREATE TABLE

CREATE TABLE orders (
  `user` BIGINT NOT NULL,
  product VARCHAR(32),
  amount INT,
  ts TIMESTAMP(3),
  ptime AS PROCTIME(),
  total AS amount * 2,
  off BIGINT METADATA FROM 'offset' VIRTUAL,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND,
  PRIMARY KEY (`user`) NOT ENFORCED
) COMMENT 'the orders' WITH (
  'connector' = 'datagen',
  'properties.password' = 'hunter2'
);
[INFO] Execute statement succeeded.
!info

SHOW TABLES;
+------------+
| table name |
+------------+
|     orders |
+------------+
1 row in set
!ok

DESCRIBE orders;
+---------+-----------------------------+-------+-----------+--------------------------------+----------------------------+
|    name |                        type |  null |       key |                         extras |                  watermark |
+---------+-----------------------------+-------+-----------+--------------------------------+----------------------------+
|    user |                      BIGINT | FALSE | PRI(user) |                                |                            |
| product |                 VARCHAR(32) |  TRUE |           |                                |                            |
|  amount |                         INT |  TRUE |           |                                |                            |
|      ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |           |                                | `ts` - INTERVAL '1' SECOND |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |           |                  AS PROCTIME() |                            |
|   total |                         INT |  TRUE |           |                AS `amount` * 2 |                            |
|     off |                      BIGINT |  TRUE |           | METADATA FROM 'offset' VIRTUAL |                            |
+---------+-----------------------------+-------+-----------+--------------------------------+----------------------------+
7 rows in set
!ok

SHOW CREATE TABLE orders;
+---------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                                                                                                                                                                                                                                              result |
+---------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE TABLE `default_catalog`.`default_database`.`orders` (
  `user` BIGINT NOT NULL,
  `product` VARCHAR(32),
  `amount` INT,
  `ts` TIMESTAMP(3),
  `ptime` AS PROCTIME(),
  `total` AS `amount` * 2,
  `off` BIGINT METADATA FROM 'offset' VIRTUAL,
  WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND,
  CONSTRAINT `PK_user` PRIMARY KEY (`user`) NOT ENFORCED
)
COMMENT 'the orders'
WITH (
  'connector' = 'datagen',
  'properties.password' = '******'
)
 |
+---------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

CREATE TABLE orders (a INT) WITH ('connector' = 'blackhole');
[ERROR] Could not execute SQL statement. Reason:
already exists
!error

CREATE TABLE IF NOT EXISTS orders (a INT) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY TABLE orders (a INT) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info

DESCRIBE orders;
+------+------+------+-----+--------+-----------+
| name | type | null | key | extras | watermark |
+------+------+------+-----+--------+-----------+
|    a |  INT | TRUE |     |        |           |
+------+------+------+-----+--------+-----------+
1 row in set
!ok

DROP TABLE orders;
[ERROR] Could not execute SQL statement. Reason:
Temporary table with identifier '`default_catalog`.`default_database`.`orders`' exists. Drop it first before removing the permanent table.
!error

DROP TEMPORARY TABLE orders;
[INFO] Execute statement succeeded.
!info

ALTER TABLE orders SET ('number-of-rows' = '10');
[INFO] Execute statement succeeded.
!info

ALTER TABLE orders RENAME TO orders2;
[INFO] Execute statement succeeded.
!info

ALTER TABLE orders2 ADD (region STRING COMMENT 'where' AFTER product);
[INFO] Execute statement succeeded.
!info

ALTER TABLE orders2 DROP WATERMARK;
[INFO] Execute statement succeeded.
!info

SHOW CREATE TABLE orders2;
+---------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                                                                                                                                                                                                                                                                      result |
+---------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE TABLE `default_catalog`.`default_database`.`orders2` (
  `user` BIGINT NOT NULL,
  `product` VARCHAR(32),
  `region` VARCHAR(2147483647) COMMENT 'where',
  `amount` INT,
  `ts` TIMESTAMP(3),
  `ptime` AS PROCTIME(),
  `total` AS `amount` * 2,
  `off` BIGINT METADATA FROM 'offset' VIRTUAL,
  CONSTRAINT `PK_user` PRIMARY KEY (`user`) NOT ENFORCED
)
COMMENT 'the orders'
WITH (
  'connector' = 'datagen',
  'number-of-rows' = '10',
  'properties.password' = '******'
)
 |
+---------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

CREATE TABLE t2 (a INT, b AS nmae + 1) WITH ('connector' = 'blackhole');
[ERROR] Could not execute SQL statement. Reason:
Column 'nmae' not found
!error

CREATE TABLE t3 LIKE orders2 (EXCLUDING OPTIONS);
[INFO] Execute statement succeeded.
!info

SELECT * FROM t3;
[ERROR] Could not execute SQL statement. Reason:
Table options do not contain an option key 'connector'
!error

DROP TABLE t3;
[INFO] Execute statement succeeded.
!info

CREATE TABLE t3 WITH ('connector' = 'blackhole') LIKE orders2 (EXCLUDING OPTIONS);
[INFO] Execute statement succeeded.
!info

DROP TABLE t3;
[INFO] Execute statement succeeded.
!info

DROP TABLE nothere;
[ERROR] Could not execute SQL statement. Reason:
Table with identifier 'default_catalog.default_database.nothere' does not exist.
!error

DROP TABLE IF EXISTS nothere;
[INFO] Execute statement succeeded.
!info

SELECT * FROM nothere;
[ERROR] Could not execute SQL statement. Reason:
Object 'nothere' not found
!error

# Computed columns keep the text Flink's validator hands back (built-in names upper-cased, SUBSTRING in call form, a
# simple CASE searched with ELSE NULL): the DESCRIBE below is what Flink 2.3.0's client printed for the same table.
CREATE TABLE validated (a INT, b STRING, c AS coalesce(b, 'x'), d AS cast(a as bigint), e AS substring(b from 1 for 2), f AS upper(b), g AS b like 'x%', h AS a + 1, k AS char_length(b), l AS a IS NOT NULL, m AS CASE a WHEN 1 THEN 'one' END) WITH ('connector'='datagen');
[INFO] Execute statement succeeded.
!info

DESCRIBE validated;
+------+---------+-------+-----+-----------------------------------------------+-----------+
| name |    type |  null | key |                                        extras | watermark |
+------+---------+-------+-----+-----------------------------------------------+-----------+
|    a |     INT |  TRUE |     |                                               |           |
|    b |  STRING |  TRUE |     |                                               |           |
|    c |  STRING | FALSE |     |                         AS COALESCE(`b`, 'x') |           |
|    d |  BIGINT |  TRUE |     |                        AS CAST(`a` AS BIGINT) |           |
|    e |  STRING |  TRUE |     |                       AS SUBSTRING(`b`, 1, 2) |           |
|    f |  STRING |  TRUE |     |                                 AS UPPER(`b`) |           |
|    g | BOOLEAN |  TRUE |     |                              AS `b` LIKE 'x%' |           |
|    h |     INT |  TRUE |     |                                    AS `a` + 1 |           |
|    k |     INT |  TRUE |     |                           AS CHAR_LENGTH(`b`) |           |
|    l | BOOLEAN | FALSE |     |                            AS `a` IS NOT NULL |           |
|    m | CHAR(3) |  TRUE |     | AS CASE WHEN `a` = 1 THEN 'one' ELSE NULL END |           |
+------+---------+-------+-----+-----------------------------------------------+-----------+
11 rows in set
!ok
