-- Top-N with ROW_NUMBER.

SELECT k, v, rn FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM (VALUES ('a', 1), ('a', 5), ('a', 3), ('b', 2)) AS t(k, v)) WHERE rn <= 2;
-- expect:
[a, 3, 2]
[a, 5, 1]
[b, 2, 1]

SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v) AS rn FROM (VALUES ('a', 4), ('a', 2), ('b', 7)) AS t(k, v)) WHERE rn = 1;
-- expect:
[a, 2]
[b, 7]

-- mode: streaming
SELECT k, v, rn FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM (VALUES ('a', 1), ('a', 5)) AS t(k, v)) WHERE rn <= 2;
-- changelog:
+I[a, 1, 1]
-U[a, 1, 1]
+U[a, 5, 1]
+I[a, 1, 2]

SELECT v FROM (SELECT v, ROW_NUMBER() OVER (ORDER BY v DESC) AS rn FROM (VALUES (1), (5), (3)) AS t(v)) WHERE rn <= 1;
-- changelog:
+I[1]
-U[1]
+U[5]

SELECT v, ROW_NUMBER() OVER (ORDER BY v) AS rn FROM (VALUES (1), (5)) AS t(v);
-- error: OVER windows' ordering in stream mode must be defined on a time attribute.

-- mode: batch
SELECT v, ROW_NUMBER() OVER (ORDER BY v DESC) AS rn FROM (VALUES (1), (5), (3)) AS t(v);
-- expect:
[1, 3]
[3, 2]
[5, 1]

-- RANK and DENSE_RANK: peers share a number; the bound applies to the number, so ties may exceed N rows.
-- mode: both
SELECT k, v, r FROM (SELECT k, v, RANK() OVER (PARTITION BY k ORDER BY v DESC) AS r FROM (VALUES ('a', 5), ('a', 5), ('a', 3), ('a', 1), ('b', 2)) AS t(k, v)) WHERE r <= 3;
-- expect:
[a, 3, 3]
[a, 5, 1]
[a, 5, 1]
[b, 2, 1]

SELECT k, v, r FROM (SELECT k, v, DENSE_RANK() OVER (PARTITION BY k ORDER BY v DESC) AS r FROM (VALUES ('a', 5), ('a', 5), ('a', 3), ('a', 1), ('b', 2)) AS t(k, v)) WHERE r <= 2;
-- expect:
[a, 3, 2]
[a, 5, 1]
[a, 5, 1]
[b, 2, 1]

SELECT k, v FROM (SELECT k, v, RANK() OVER (PARTITION BY k ORDER BY v) AS r FROM (VALUES ('a', 4), ('a', 2), ('a', 2), ('b', 7)) AS t(k, v)) WHERE r = 1;
-- expect:
[a, 2]
[a, 2]
[b, 7]

-- mode: streaming
SELECT k, v, r FROM (SELECT k, v, RANK() OVER (PARTITION BY k ORDER BY v DESC) AS r FROM (VALUES ('a', 1), ('a', 5), ('a', 5)) AS t(k, v)) WHERE r <= 2;
-- changelog:
+I[a, 1, 1]
-U[a, 1, 1]
+U[a, 5, 1]
+I[a, 1, 2]
-U[a, 1, 2]
+U[a, 5, 1]

-- mode: streaming
SELECT k, RANK() OVER (ORDER BY k) AS r, ROW_NUMBER() OVER (ORDER BY k) AS n FROM (VALUES ('a')) AS t(k);
-- error: Ranking functions cannot be mixed

-- mode: batch
SELECT k, RANK() OVER (ORDER BY k) AS r, ROW_NUMBER() OVER (ORDER BY k) AS n FROM (VALUES ('a'), ('b')) AS t(k);
-- expect:
[a, 1, 1]
[b, 2, 2]
