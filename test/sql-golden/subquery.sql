-- Uncorrelated IN / EXISTS subqueries as semi / anti joins.

SELECT a FROM (VALUES (1), (2), (3)) AS t(a) WHERE a IN (SELECT b FROM (VALUES (2), (3), (3)) AS u(b));
-- expect:
[2]
[3]

SELECT a FROM (VALUES (1), (2), (3)) AS t(a) WHERE a NOT IN (SELECT b FROM (VALUES (2)) AS u(b)) AND a > 1;
-- expect:
[3]

SELECT a FROM (VALUES (1), (2)) AS t(a) WHERE EXISTS (SELECT 1 FROM (VALUES (5)) AS u(b) WHERE b > 4);
-- expect:
[1]
[2]

SELECT a FROM (VALUES (1), (2)) AS t(a) WHERE NOT EXISTS (SELECT 1 FROM (VALUES (5)) AS u(b) WHERE b > 9);
-- expect:
[1]
[2]

SELECT a FROM (VALUES (1), (2)) AS t(a) WHERE a IN (SELECT CAST(b AS BIGINT) FROM (VALUES (2)) AS u(b));
-- expect:
[2]

SELECT a FROM (VALUES (1), (2), (2), (3)) AS t(a) INTERSECT SELECT b FROM (VALUES (2), (3), (4)) AS u(b);
-- expect:
[2]
[3]

SELECT a FROM (VALUES (1), (1), (2), (3)) AS t(a) EXCEPT SELECT b FROM (VALUES (2)) AS u(b);
-- expect:
[1]
[3]

SELECT a, (SELECT MAX(b) FROM (VALUES (5), (7)) AS u(b)) AS m FROM (VALUES (1), (2)) AS t(a);
-- expect:
[1, 7]
[2, 7]

SELECT a FROM (VALUES (1), (5), (9)) AS t(a) WHERE a > (SELECT AVG(b) FROM (VALUES (2), (6)) AS u(b));
-- expect:
[5]
[9]

SELECT * FROM (VALUES (1)) AS t(a) WHERE a < (SELECT MIN(b) FROM (VALUES (2)) AS u(b));
-- expect:
[1]

-- NULL semantics: a NULL in the NOT IN list makes the predicate UNKNOWN for every row.
SELECT a FROM (VALUES (1), (2), (3)) AS t(a) WHERE a NOT IN (SELECT b FROM (VALUES (2), (CAST(NULL AS INT))) AS u(b));
-- expect:

SELECT a FROM (VALUES (1), (CAST(NULL AS INT)), (3)) AS t(a) WHERE a NOT IN (SELECT b FROM (VALUES (2)) AS u(b));
-- expect:
[1]
[3]

-- An empty subquery: NOT IN is TRUE, even for a NULL left value.
SELECT a FROM (VALUES (1), (CAST(NULL AS INT))) AS t(a) WHERE a NOT IN (SELECT b FROM (VALUES (2)) AS u(b) WHERE b > 5);
-- expect:
[1]
[NULL]

SELECT a FROM (VALUES (1), (CAST(NULL AS INT)), (2)) AS t(a) WHERE a IN (SELECT b FROM (VALUES (2), (CAST(NULL AS INT))) AS u(b));
-- expect:
[2]

SELECT a FROM (VALUES (1), (CAST(NULL AS INT))) AS t(a) WHERE NOT EXISTS (SELECT 1 FROM (VALUES (CAST(NULL AS INT))) AS u(b) WHERE b > 0);
-- expect:
[1]
[NULL]

-- Set operations compare rows as IS NOT DISTINCT FROM: NULL equals NULL.
SELECT a FROM (VALUES (1), (CAST(NULL AS INT))) AS t(a) INTERSECT SELECT b FROM (VALUES (CAST(NULL AS INT)), (3)) AS u(b);
-- expect:
[NULL]

SELECT a FROM (VALUES (1), (CAST(NULL AS INT))) AS t(a) EXCEPT SELECT b FROM (VALUES (CAST(NULL AS INT)), (3)) AS u(b);
-- expect:
[1]

-- INTERSECT ALL / EXCEPT ALL keep multiplicities: min(left, right) and max(left - right, 0) copies.
SELECT a FROM (VALUES (1), (1), (1), (2), (CAST(NULL AS INT)), (CAST(NULL AS INT))) AS t(a) INTERSECT ALL SELECT b FROM (VALUES (1), (1), (3), (CAST(NULL AS INT))) AS u(b);
-- expect:
[1]
[1]
[NULL]

SELECT a FROM (VALUES (1), (1), (1), (2), (CAST(NULL AS INT)), (CAST(NULL AS INT))) AS t(a) EXCEPT ALL SELECT b FROM (VALUES (1), (3), (CAST(NULL AS INT))) AS u(b);
-- expect:
[1]
[1]
[2]
[NULL]

-- Correlated IN / EXISTS with equality correlations become semi / anti joins on the correlation columns.
SELECT a, k FROM (VALUES (1, 'x'), (2, 'x'), (3, 'y'), (4, CAST(NULL AS STRING))) AS t(a, k) WHERE EXISTS (SELECT 1 FROM (VALUES ('x', 2), ('y', 9)) AS u(k2, b) WHERE u.k2 = t.k AND b > 1);
-- expect:
[1, x]
[2, x]
[3, y]

SELECT a, k FROM (VALUES (1, 'x'), (2, 'x'), (3, 'y'), (4, CAST(NULL AS STRING))) AS t(a, k) WHERE NOT EXISTS (SELECT 1 FROM (VALUES ('x', 2), ('y', 9)) AS u(k2, b) WHERE t.k = u.k2 AND b < 5);
-- expect:
[3, y]
[4, NULL]

SELECT a FROM (VALUES (1, 'x'), (2, 'x'), (9, 'y')) AS t(a, k) WHERE a IN (SELECT b FROM (VALUES ('x', 2), ('y', 2), ('y', 9)) AS u(k2, b) WHERE u.k2 = t.k);
-- expect:
[2]
[9]

-- An aggregate groups by the correlation too (Flink 2.3.0 answers 1 over the same rows in csv tables).
SELECT a FROM (VALUES (1, 'x')) AS t(a, k) WHERE a IN (SELECT MAX(b) FROM (VALUES ('x', 1)) AS u(k2, b) WHERE u.k2 = t.k);
-- expect:
[1]
