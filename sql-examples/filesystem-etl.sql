-- Filesystem ETL: read partitioned CSV files, write them as JSON into a table partitioned by country,
-- then read the result back. Run it from the repository root (paths are relative to it):
--   npx sluice -f sql-examples/filesystem-etl.sql        (no server needed; output in sql-examples/out/)

SET 'execution.runtime-mode' = 'batch';
SET 'table.dml-sync' = 'true';

-- The input: one folder per day (dt=2024-01-01/, dt=2024-01-02/); dt comes from the folder name.
CREATE TEMPORARY TABLE orders (
  order_id BIGINT,
  customer STRING,
  country  STRING,
  amount   DECIMAL(10, 2),
  dt       STRING
) PARTITIONED BY (dt) WITH (
  'connector' = 'filesystem',
  'path' = 'sql-examples/data/orders',
  'format' = 'csv'
);

-- The output: JSON lines, one folder per country (country=DE/, ...).
CREATE TEMPORARY TABLE orders_by_country (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2),
  dt       STRING,
  country  STRING
) PARTITIONED BY (country) WITH (
  'connector' = 'filesystem',
  'path' = 'sql-examples/out/orders_by_country',
  'format' = 'json'
);

-- OVERWRITE replaces what an earlier run wrote, so running the example twice gives the same result.
INSERT OVERWRITE orders_by_country
SELECT order_id, UPPER(customer), amount, dt, country FROM orders WHERE amount >= 5;

-- Read the written files back: per country, how many orders and how much.
SELECT country, COUNT(*) AS orders, SUM(amount) AS total, MIN(dt) AS first_day
FROM orders_by_country
GROUP BY country
ORDER BY country;
