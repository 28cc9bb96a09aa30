-- Arrow files: write 100,000 generated rows as Arrow IPC files partitioned by site, then read them back.
-- Run it from the repository root (paths are relative to it):
--   npx sluice -f sql-examples/arrow-files.sql        (no server needed; output in sql-examples/out/)
-- Any Arrow implementation reads the files (pyarrow.ipc.open_file, apache-arrow's tableFromIPC, ...).

SET 'execution.runtime-mode' = 'batch';
SET 'table.dml-sync' = 'true';

-- 1..100000, bounded by the sequence; the rate limit (10,000 rows/s by default, as in Flink) lifted.
CREATE TEMPORARY TABLE ids (
  id BIGINT
) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '100000000',
  'fields.id.kind' = 'sequence',
  'fields.id.start' = '1',
  'fields.id.end' = '100000'
);

CREATE TEMPORARY TABLE readings (
  id      BIGINT,
  sensor  STRING,
  reading DOUBLE,
  site    STRING
) PARTITIONED BY (site) WITH (
  'connector' = 'filesystem',
  'path' = 'sql-examples/out/readings',
  'format' = 'arrow'
);

-- OVERWRITE replaces what an earlier run wrote, so running the example twice gives the same result.
INSERT OVERWRITE readings
SELECT id, CONCAT('sensor-', CAST(id % 10 AS STRING)), CAST(id % 97 AS DOUBLE) / 4, CONCAT('site-', CAST(id % 3 AS STRING))
FROM ids;

-- Read back: per site (the folder site=...), how many readings, and their largest value.
SELECT site, COUNT(*) AS readings, SUM(id) AS id_sum, MAX(reading) AS max_reading
FROM readings
GROUP BY site
ORDER BY site;

-- A plain projection into a sink that takes columns: the Arrow batches go through without building rows.
CREATE TEMPORARY TABLE discard (sensor STRING, id BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO discard SELECT sensor, id FROM readings;
