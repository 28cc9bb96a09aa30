# select.q - batch and streaming queries in tableau form, column widths, NULLs, errors
# Streaming results size columns by type as Flink's TableauStyle.columnWidthsByType: a string column is as wide as
# 'table.display.max-column-width' whatever its values.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY VIEW people AS SELECT * FROM (VALUES (1, 'Alice', 30), (2, 'Bob', CAST(NULL AS INT)), (3, 'Carol', 41)) AS t(id, name, age);
[INFO] Execute statement succeeded.
!info

SELECT * FROM people WHERE age > 35;
+----+-------+-----+
| id |  name | age |
+----+-------+-----+
|  3 | Carol |  41 |
+----+-------+-----+
1 row in set
!ok

SELECT name, age * 2 AS doubled, age IS NULL AS no_age FROM people ORDER BY id;
+-------+---------+--------+
|  name | doubled | no_age |
+-------+---------+--------+
| Alice |      60 |  FALSE |
|   Bob |  <NULL> |   TRUE |
| Carol |      82 |  FALSE |
+-------+---------+--------+
3 rows in set
!ok

SELECT COUNT(*) AS n, SUM(age) AS total, AVG(age) AS avg_age, MIN(name) AS first_name FROM people;
+---+-------+---------+------------+
| n | total | avg_age | first_name |
+---+-------+---------+------------+
| 3 |    71 |      35 |      Alice |
+---+-------+---------+------------+
1 row in set
!ok

SELECT * FROM people WHERE 1 = 0;
Empty set
!ok

SELECT nmae FROM people;
[ERROR] Could not execute SQL statement. Reason:
ValidationError: From line 1, column 8 to line 1, column 11: Column 'nmae' not found in any table; did you mean 'name'?
!error

SELECT UPPER(name) || '!' AS shout, CHAR_LENGTH(name) AS len, CAST(id AS DECIMAL(5, 2)) AS d FROM people ORDER BY id LIMIT 2;
+--------+-----+------+
|  shout | len |    d |
+--------+-----+------+
| ALICE! |   5 | 1.00 |
|   BOB! |   3 | 2.00 |
+--------+-----+------+
2 rows in set
!ok

SET 'table.display.max-column-width' = '10';
[INFO] Execute statement succeeded.
!info

SELECT 'a very long string value' AS s, CAST('2024-01-02 03:04:05.678' AS TIMESTAMP(3)) AS ts, DATE '2024-02-29' AS d, TRUE AS b, CAST(9007199254740993 AS BIGINT) AS big;
+------------+------------+------------+------+------------+
|          s |         ts |          d |    b |        big |
+------------+------------+------------+------+------------+
| a very ... | 2024-01... | 2024-02-29 | TRUE | 9007199... |
+------------+------------+------------+------+------------+
1 row in set
!ok

RESET 'table.display.max-column-width';
[INFO] Execute statement succeeded.
!info

SET 'execution.runtime-mode' = 'streaming';
[INFO] Execute statement succeeded.
!info

SELECT name FROM people WHERE id = 1;
+----+--------------------------------+
| op |                           name |
+----+--------------------------------+
| +I |                          Alice |
+----+--------------------------------+
Received a total of 1 row
!ok

SELECT age > 35 AS older, COUNT(*) AS c FROM people GROUP BY age > 35;
+----+--------+----------------------+
| op |  older |                    c |
+----+--------+----------------------+
| +I |  FALSE |                    1 |
| +I | <NULL> |                    1 |
| +I |   TRUE |                    1 |
+----+--------+----------------------+
Received a total of 3 rows
!ok

