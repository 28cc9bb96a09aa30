-- Windowed aggregation over event time: page views from a shipped CSV file with a WATERMARK,
-- counted per one-minute TUMBLE window and per two-minute HOP window sliding by one minute.
--   npx sluice -f sql-examples/windowed-aggregation.sql     (from the repository root; no server needed)
-- Streaming mode over a bounded file: when the file ends the watermark jumps to the end of time,
-- so every window fires and the job ends.

SET 'execution.runtime-mode' = 'streaming';

CREATE TEMPORARY TABLE clicks (
  user_name  STRING,
  url        STRING,
  click_time TIMESTAMP(3),
  WATERMARK FOR click_time AS click_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = 'sql-examples/data/clicks',
  'format' = 'csv'
);

-- Clicks, distinct users and checkouts per minute.
SELECT window_start, window_end, COUNT(*) AS clicks, COUNT(DISTINCT user_name) AS users,
  SUM(CASE WHEN url = '/checkout' THEN 1 ELSE 0 END) AS checkouts
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(click_time), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;

-- Clicks per user over the last two minutes, every minute.
SELECT window_start, window_end, user_name, COUNT(*) AS clicks
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(click_time), INTERVAL '1' MINUTE, INTERVAL '2' MINUTES))
GROUP BY window_start, window_end, user_name;
