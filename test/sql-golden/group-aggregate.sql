-- GROUP BY with COUNT / SUM / AVG / MIN / MAX / DISTINCT / FILTER / HAVING.

SELECT k, COUNT(*) AS c, SUM(v), MIN(v), MAX(v), AVG(v) FROM (VALUES ('a', 1), ('b', 2), ('a', 3), ('a', 5)) AS t(k, v) GROUP BY k;
-- expect:
[a, 3, 9, 1, 5, 3]
[b, 1, 2, 2, 2, 2]

SELECT COUNT(*), SUM(v) FROM (VALUES (1), (2), (3)) AS t(v);
-- expect:
[3, 6]

SELECT k, COUNT(DISTINCT v) FROM (VALUES ('a', 1), ('a', 1), ('a', 2), ('b', 1)) AS t(k, v) GROUP BY k;
-- expect:
[a, 2]
[b, 1]

SELECT COUNT(*) FILTER (WHERE v > 1) AS big, COUNT(*) AS total FROM (VALUES (1), (2), (3)) AS t(v);
-- expect:
[2, 3]

SELECT k, SUM(v) AS s FROM (VALUES ('a', 1), ('b', 2), ('a', 3)) AS t(k, v) GROUP BY k HAVING SUM(v) > 2;
-- expect:
[a, 4]

SELECT k, v FROM (VALUES ('a', 1)) AS t(k, v) GROUP BY k;
-- error: Expression 'v' is not being grouped

SELECT UPPER(k) AS uk, COUNT(*) + 1 FROM (VALUES ('a', 1), ('A', 2)) AS t(k, v) GROUP BY UPPER(k);
-- expect:
[A, 3]

SELECT SUM(v) FROM (VALUES (1.5), (2.25)) AS t(v);
-- expect:
[3.75]

-- mode: streaming
SELECT k, COUNT(*) AS c FROM (VALUES ('a'), ('b'), ('a')) AS t(k) GROUP BY k;
-- changelog:
+I[a, 1]
+I[b, 1]
-U[a, 1]
+U[a, 2]

SELECT c, COUNT(*) AS n FROM (SELECT k, COUNT(*) AS c FROM (VALUES ('a'), ('b'), ('a')) AS t(k) GROUP BY k) GROUP BY c;
-- changelog:
+I[1, 1]
-U[1, 1]
+U[1, 2]
-U[1, 2]
+U[1, 1]
+I[2, 1]

-- mode: batch
SELECT k, COUNT(*) AS c FROM (VALUES ('a'), ('b'), ('a')) AS t(k) GROUP BY k;
-- expect-ordered:
[a, 2]
[b, 1]

SELECT COUNT(*), SUM(v) FROM (VALUES (1), (2)) AS t(v) WHERE v > 5;
-- expect:
[0, NULL]

-- mode: both
SELECT a FROM (VALUES (3), (1), (2)) AS t(a) LIMIT 2;
-- expect:
[1]
[3]

-- mode: both
SELECT a, b, SUM(v) FROM (VALUES ('x', 'p', 1), ('x', 'q', 2), ('y', 'p', 4)) AS t(a, b, v) GROUP BY ROLLUP (a, b);
-- expect:
[x, p, 1]
[x, q, 2]
[y, p, 4]
[x, NULL, 3]
[y, NULL, 4]
[NULL, NULL, 7]

SELECT a, b, COUNT(*) FROM (VALUES ('x', 'p'), ('y', 'p')) AS t(a, b) GROUP BY GROUPING SETS ((a), (b));
-- expect:
[x, NULL, 1]
[y, NULL, 1]
[NULL, p, 2]

SELECT a, b, COUNT(*) FROM (VALUES ('x', 'p')) AS t(a, b) GROUP BY CUBE (a, b);
-- expect:
[x, p, 1]
[x, NULL, 1]
[NULL, p, 1]
[NULL, NULL, 1]
