-- Window TVFs and window aggregates (windows fire on watermark, or at end of input over VALUES).

WITH b AS (SELECT * FROM (VALUES ('a', 1, TIMESTAMP '2024-01-01 10:01:00'), ('a', 2, TIMESTAMP '2024-01-01 10:04:00'), ('b', 5, TIMESTAMP '2024-01-01 10:07:00'), ('a', 3, TIMESTAMP '2024-01-01 10:12:00')) AS t(k, v, ts))
SELECT window_start, window_end, k, SUM(v) AS s, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE b, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) GROUP BY window_start, window_end, k;
-- expect:
[2024-01-01 10:00:00.000, 2024-01-01 10:10:00.000, a, 3, 2]
[2024-01-01 10:00:00.000, 2024-01-01 10:10:00.000, b, 5, 1]
[2024-01-01 10:10:00.000, 2024-01-01 10:20:00.000, a, 3, 1]

WITH b AS (SELECT * FROM (VALUES (1, TIMESTAMP '2024-01-01 10:01:00'), (2, TIMESTAMP '2024-01-01 10:06:00')) AS t(v, ts))
SELECT window_start, window_end, SUM(v) FROM TABLE(HOP(TABLE b, DESCRIPTOR(ts), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES)) GROUP BY window_start, window_end;
-- expect:
[2024-01-01 09:55:00.000, 2024-01-01 10:05:00.000, 1]
[2024-01-01 10:00:00.000, 2024-01-01 10:10:00.000, 3]
[2024-01-01 10:05:00.000, 2024-01-01 10:15:00.000, 2]

WITH b AS (SELECT * FROM (VALUES (1, TIMESTAMP '2024-01-01 10:01:00'), (2, TIMESTAMP '2024-01-01 10:06:00')) AS t(v, ts))
SELECT window_start, window_end, SUM(v) FROM TABLE(CUMULATE(TABLE b, DESCRIPTOR(ts), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES)) GROUP BY window_start, window_end;
-- expect:
[2024-01-01 10:00:00.000, 2024-01-01 10:05:00.000, 1]
[2024-01-01 10:00:00.000, 2024-01-01 10:10:00.000, 3]

WITH b AS (SELECT * FROM (VALUES (1, TIMESTAMP '2024-01-01 10:01:00')) AS t(v, ts))
SELECT v, window_start, window_time FROM TABLE(TUMBLE(TABLE b, DESCRIPTOR(ts), INTERVAL '1' HOUR));
-- expect:
[1, 2024-01-01 10:00:00.000, 2024-01-01 10:59:59.999]

WITH b AS (SELECT * FROM (VALUES (1, 2)) AS t(v, ts))
SELECT * FROM TABLE(TUMBLE(TABLE b, DESCRIPTOR(ts), INTERVAL '1' HOUR));
-- error: The window function requires the timecol is a time attribute type, but is INT.

-- mode: streaming
WITH b AS (SELECT * FROM (VALUES ('a', 1, TIMESTAMP '2024-01-01 10:01:00'), ('a', 2, TIMESTAMP '2024-01-01 10:04:00')) AS t(k, v, ts))
SELECT k, SUM(v) AS s FROM TABLE(TUMBLE(TABLE b, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) GROUP BY window_start, window_end, k;
-- changelog:
+I[a, 3]

-- mode: both
WITH b AS (SELECT * FROM (VALUES ('a', 1, TIMESTAMP '2024-01-01 10:00:00'), ('a', 2, TIMESTAMP '2024-01-01 10:03:00'), ('a', 4, TIMESTAMP '2024-01-01 10:20:00'), ('b', 8, TIMESTAMP '2024-01-01 10:01:00')) AS t(k, v, ts))
SELECT window_start, window_end, k, SUM(v) FROM TABLE(SESSION(TABLE b PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' MINUTES)) GROUP BY window_start, window_end, k;
-- expect:
[2024-01-01 10:00:00.000, 2024-01-01 10:08:00.000, a, 3]
[2024-01-01 10:20:00.000, 2024-01-01 10:25:00.000, a, 4]
[2024-01-01 10:01:00.000, 2024-01-01 10:06:00.000, b, 8]
