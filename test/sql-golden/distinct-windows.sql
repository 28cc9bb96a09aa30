-- DISTINCT (and FILTER) aggregates in OVER windows and SESSION windows (batch over VALUES; the streaming
-- side, on watermarks, is in test/table-runtime/distinct-windows.test.ts).
-- mode: batch

-- ROWS frame: the distinct values of the current row and the 2 before it.
SELECT k, t, v, COUNT(DISTINCT v) OVER (PARTITION BY k ORDER BY t ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS d, SUM(DISTINCT v) OVER (PARTITION BY k ORDER BY t ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM (VALUES ('a', 1, 1), ('a', 2, 1), ('a', 3, 2), ('a', 4, 2), ('a', 5, 2), ('a', 6, 1), ('b', 1, 7), ('b', 2, CAST(NULL AS INT))) AS x(k, t, v);
-- expect:
[a, 1, 1, 1, 1]
[a, 2, 1, 1, 1]
[a, 3, 2, 2, 3]
[a, 4, 2, 2, 3]
[a, 5, 2, 1, 2]
[a, 6, 1, 2, 3]
[b, 1, 7, 1, 7]
[b, 2, NULL, 1, 7]

-- RANGE frame: rows whose order key is within 2 of the current one (peers included).
SELECT t, v, COUNT(DISTINCT v) OVER (ORDER BY t RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS d FROM (VALUES (1, 5), (2, 5), (2, 6), (4, 7), (7, 5)) AS x(t, v);
-- expect:
[1, 5, 1]
[2, 5, 2]
[2, 6, 2]
[4, 7, 3]
[7, 5, 1]

-- Unbounded frame: a value counts once however often it comes back; NULL never counts.
SELECT t, COUNT(DISTINCT v) OVER (ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS d, COUNT(v) OVER (ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS c FROM (VALUES (1, 'x'), (2, 'y'), (3, 'x'), (4, CAST(NULL AS STRING)), (5, 'z')) AS x(t, v);
-- expect:
[1, 1, 1]
[2, 2, 2]
[3, 2, 3]
[4, 2, 3]
[5, 3, 4]

-- SESSION window TVF: the middle row bridges two sessions; 1 seen in both counts once.
WITH b AS (SELECT * FROM (VALUES ('a', 1, TIMESTAMP '2024-01-01 10:00:00'), ('a', 2, TIMESTAMP '2024-01-01 10:08:00'), ('a', 1, TIMESTAMP '2024-01-01 10:04:00'), ('a', 1, TIMESTAMP '2024-01-01 10:12:00'), ('b', 3, TIMESTAMP '2024-01-01 10:00:00'), ('b', 3, TIMESTAMP '2024-01-01 10:30:00')) AS t(k, v, ts))
SELECT window_start, window_end, k, COUNT(DISTINCT v) AS d, SUM(DISTINCT v) AS s, COUNT(*) AS c, COUNT(DISTINCT v) FILTER (WHERE v > 1) AS f FROM TABLE(SESSION(TABLE b PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' MINUTES)) GROUP BY window_start, window_end, k;
-- expect:
[2024-01-01 10:00:00.000, 2024-01-01 10:17:00.000, a, 2, 3, 4, 1]
[2024-01-01 10:00:00.000, 2024-01-01 10:05:00.000, b, 1, 3, 1, 1]
[2024-01-01 10:30:00.000, 2024-01-01 10:35:00.000, b, 1, 3, 1, 1]

-- Legacy GROUP BY SESSION(...).
WITH b AS (SELECT * FROM (VALUES ('u', TIMESTAMP '2024-01-01 10:01:00'), ('u', TIMESTAMP '2024-01-01 10:03:00'), ('v', TIMESTAMP '2024-01-01 10:04:00'), (CAST(NULL AS STRING), TIMESTAMP '2024-01-01 10:05:00'), ('u', TIMESTAMP '2024-01-01 10:30:00')) AS t(usr, ts))
SELECT SESSION_START(ts, INTERVAL '5' MINUTE) AS s, COUNT(DISTINCT usr) AS d, COUNT(*) FILTER (WHERE usr = 'u') AS u FROM b GROUP BY SESSION(ts, INTERVAL '5' MINUTE);
-- expect:
[2024-01-01 10:01:00.000, 2, 2]
[2024-01-01 10:30:00.000, 1, 1]
