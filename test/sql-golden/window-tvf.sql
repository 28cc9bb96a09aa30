-- Window TVFs and window aggregates over VALUES: batch mode, where any TIMESTAMP column may be windowed.
-- Streaming needs a time attribute (see the error below); streaming windows on watermarks are covered by
-- test/integration/nexmark (q5, q7, q8, q11) and test/planner.
-- mode: batch

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
-- error: The window function requires the timecol is a time attribute type, but is TIMESTAMP(0)

-- mode: batch
WITH b AS (SELECT * FROM (VALUES ('a', 1, TIMESTAMP '2024-01-01 10:00:00'), ('a', 2, TIMESTAMP '2024-01-01 10:03:00'), ('a', 4, TIMESTAMP '2024-01-01 10:20:00'), ('b', 8, TIMESTAMP '2024-01-01 10:01:00')) AS t(k, v, ts))
SELECT window_start, window_end, k, SUM(v) FROM TABLE(SESSION(TABLE b PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' MINUTES)) GROUP BY window_start, window_end, k;
-- expect:
[2024-01-01 10:00:00.000, 2024-01-01 10:08:00.000, a, 3]
[2024-01-01 10:20:00.000, 2024-01-01 10:25:00.000, a, 4]
[2024-01-01 10:01:00.000, 2024-01-01 10:06:00.000, b, 8]

-- Legacy group windows (deprecated in Flink, used by Nexmark).
WITH b AS (SELECT * FROM (VALUES ('a', 1, TIMESTAMP '2024-01-01 10:01:00'), ('a', 2, TIMESTAMP '2024-01-01 10:04:00'), ('a', 3, TIMESTAMP '2024-01-01 10:12:00')) AS t(k, v, ts))
SELECT k, TUMBLE_START(ts, INTERVAL '10' MINUTE) AS ws, TUMBLE_END(ts, INTERVAL '10' MINUTE), SUM(v) FROM b GROUP BY k, TUMBLE(ts, INTERVAL '10' MINUTE);
-- expect:
[a, 2024-01-01 10:00:00.000, 2024-01-01 10:10:00.000, 3]
[a, 2024-01-01 10:10:00.000, 2024-01-01 10:20:00.000, 3]

WITH b AS (SELECT * FROM (VALUES (1, TIMESTAMP '2024-01-01 10:01:00'), (2, TIMESTAMP '2024-01-01 10:03:00'), (5, TIMESTAMP '2024-01-01 10:30:00')) AS t(v, ts))
SELECT SESSION_START(ts, INTERVAL '5' MINUTE), COUNT(*) FROM b GROUP BY SESSION(ts, INTERVAL '5' MINUTE);
-- expect:
[2024-01-01 10:01:00.000, 2]
[2024-01-01 10:30:00.000, 1]

WITH b AS (SELECT * FROM (VALUES (1, TIMESTAMP '2024-01-01 10:01:00')) AS t(v, ts))
SELECT HOP_END(ts, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE) AS e, TUMBLE_ROWTIME(ts, INTERVAL '5' MINUTE) FROM b GROUP BY HOP(ts, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE);
-- expect:
[2024-01-01 10:05:00.000, 2024-01-01 10:04:59.999]
[2024-01-01 10:10:00.000, 2024-01-01 10:09:59.999]

-- DISTINCT inside window aggregates counts each value once per window.
WITH b AS (SELECT * FROM (VALUES ('a', 1, TIMESTAMP '2024-01-01 10:01:00'), ('a', 1, TIMESTAMP '2024-01-01 10:02:00'), ('a', 2, TIMESTAMP '2024-01-01 10:03:00'), ('a', CAST(NULL AS INT), TIMESTAMP '2024-01-01 10:04:00'), ('a', 1, TIMESTAMP '2024-01-01 10:14:00')) AS t(k, v, ts))
SELECT window_start, k, COUNT(DISTINCT v) AS d, SUM(DISTINCT v) AS s, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE b, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) GROUP BY window_start, window_end, k;
-- expect:
[2024-01-01 10:00:00.000, a, 2, 3, 4]
[2024-01-01 10:10:00.000, a, 1, 1, 1]

WITH b AS (SELECT * FROM (VALUES (1, TIMESTAMP '2024-01-01 10:01:00'), (1, TIMESTAMP '2024-01-01 10:06:00'), (3, TIMESTAMP '2024-01-01 10:07:00')) AS t(v, ts))
SELECT window_start, COUNT(DISTINCT v) FILTER (WHERE v > 0) AS d FROM TABLE(HOP(TABLE b, DESCRIPTOR(ts), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES)) GROUP BY window_start, window_end;
-- expect:
[2024-01-01 09:55:00.000, 1]
[2024-01-01 10:00:00.000, 2]
[2024-01-01 10:05:00.000, 2]

WITH b AS (SELECT * FROM (VALUES ('a', 1, TIMESTAMP '2024-01-01 10:01:00')) AS t(k, v, ts))
SELECT k, COUNT(DISTINCT v) FROM TABLE(SESSION(TABLE b PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' MINUTES)) GROUP BY window_start, window_end, k;
-- expect:
[a, 1]
