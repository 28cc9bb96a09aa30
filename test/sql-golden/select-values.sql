-- Projection, filter and expressions over VALUES.

SELECT a, b FROM (VALUES (1, 'x'), (2, 'y')) AS t(a, b);
-- expect:
[1, x]
[2, y]

SELECT a * 2 AS d, b || '!' FROM (VALUES (1, 'x'), (2, 'y'), (3, 'z')) AS t(a, b) WHERE a <> 2;
-- expect:
[2, x!]
[6, z!]

SELECT * FROM (VALUES (1, 'x'), (2, 'y')) AS t(a, b) WHERE b = 'y';
-- expect:
[2, y]

SELECT 1 + 2, 'a' || 'b', CAST('42' AS INT) + 1, 10 / 4, 10.0 / 4, 7 % 3;
-- expect:
[3, ab, 43, 2, 2.500000000000, 1]

-- Flink 2.x types CHAR(3)/CHAR(5) branches as VARCHAR(5), so 'big' is not padded (Flink 1.20 printed 'big  ').
SELECT CASE WHEN a > 1 THEN 'big' ELSE 'small' END AS size FROM (VALUES (1), (2)) AS t(a);
-- expect:
[big]
[small]

SELECT a FROM (VALUES (1), (NULL), (3)) AS t(a) WHERE a IS NOT NULL AND a BETWEEN 2 AND 5;
-- expect:
[3]

SELECT a, COALESCE(b, 'none') FROM (VALUES (1, 'x'), (2, CAST(NULL AS STRING))) AS t(a, b);
-- expect:
[1, x]
[2, none]

SELECT a FROM (VALUES (1), (2), (3)) AS t(a) WHERE a IN (1, 3);
-- expect:
[1]
[3]

SELECT nmae FROM (VALUES (1, 'x')) AS t(id, name);
-- error: Column 'nmae' not found in any table; did you mean 'name'?

SELECT t.x FROM (VALUES (1)) AS t(a);
-- error: Column 'x' not found in table 't'

SELECT a FROM (VALUES (1)) AS t(a), (VALUES (2)) AS u(a);
-- error: Column 'a' is ambiguous

SELECT * FROM nope;
-- error: Object 'nope' not found

WITH w AS (SELECT a FROM (VALUES (1), (2)) AS t(a)) SELECT a + 10 FROM w;
-- expect:
[11]
[12]

SELECT DISTINCT a FROM (VALUES (1), (1), (2)) AS t(a);
-- expect:
[1]
[2]

SELECT a FROM (VALUES (1), (2)) AS t(a) UNION ALL SELECT a FROM (VALUES (2), (3)) AS t(a);
-- expect:
[1]
[2]
[2]
[3]

SELECT a FROM (VALUES (1), (2)) AS t(a) UNION SELECT a FROM (VALUES (2), (3)) AS t(a);
-- expect:
[1]
[2]
[3]
