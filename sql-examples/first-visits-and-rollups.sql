-- First page per user by event time, appended to files, then a ROLLUP with GROUPING_ID, in Flink's own
-- in-memory catalog.
--   npx sluice -f sql-examples/first-visits-and-rollups.sql     (from the repository root; no server needed)

CREATE CATALOG scratch WITH ('type' = 'generic_in_memory');
USE CATALOG scratch;

CREATE TABLE clicks (
  user_name  STRING,
  url        STRING,
  click_time TIMESTAMP(3),
  WATERMARK FOR click_time AS click_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = 'sql-examples/data/clicks',
  'format' = 'csv'
);

-- The columns whose name starts with 'c'.
SHOW COLUMNS FROM clicks LIKE 'c%';

-- Streaming: each user's first click by event time is final once the watermark passes it, so the result only
-- inserts (Flink 2.x plans it so too) and an append-only filesystem table takes it.
SET 'execution.runtime-mode' = 'streaming';
SET 'table.dml-sync' = 'true';
CREATE TABLE first_pages (user_name STRING, url STRING, click_time TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = 'sql-examples/out/first-pages', 'format' = 'csv');
INSERT INTO first_pages
SELECT user_name, url, click_time
FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY user_name ORDER BY click_time) AS rn FROM clicks)
WHERE rn = 1;

-- Batch: read the files back, and count clicks per user and page, per user (g = 1) and in all (g = 3).
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM first_pages ORDER BY click_time;
SELECT user_name, url, GROUPING_ID(user_name, url) AS g, COUNT(*) AS clicks
FROM clicks
GROUP BY ROLLUP(user_name, url)
HAVING GROUPING(url) = 1
ORDER BY g, user_name;
