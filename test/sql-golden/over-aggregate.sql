-- OVER aggregates (batch here; streaming requires a time attribute, see test/planner).
-- mode: batch

SELECT k, t, v, SUM(v) OVER (PARTITION BY k ORDER BY t ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM (VALUES ('a', 1, 10), ('a', 2, 20), ('a', 3, 30), ('b', 1, 5)) AS x(k, t, v);
-- expect:
[a, 1, 10, 10]
[a, 2, 20, 30]
[a, 3, 30, 50]
[b, 1, 5, 5]

SELECT t, COUNT(*) OVER (ORDER BY t) AS c, MAX(v) OVER (ORDER BY t) AS m FROM (VALUES (1, 3), (2, 1), (2, 7), (4, 2)) AS x(t, v);
-- expect:
[1, 1, 3]
[2, 3, 7]
[2, 3, 7]
[4, 4, 7]

SELECT t, SUM(v) OVER w AS s FROM (VALUES (1, 1), (2, 2), (5, 3)) AS x(t, v) WINDOW w AS (ORDER BY t RANGE BETWEEN 2 PRECEDING AND CURRENT ROW);
-- expect:
[1, 1]
[2, 3]
[5, 3]

-- mode: streaming
SELECT t, SUM(v) OVER (ORDER BY t) FROM (VALUES (1, 1)) AS x(t, v);
-- error: OVER windows' ordering in stream mode must be defined on a time attribute.

-- mode: batch
SELECT t, COUNT(DISTINCT v) OVER (ORDER BY t) FROM (VALUES (1, 1), (2, 1)) AS x(t, v);
-- expect:
[1, 1]
[2, 1]
