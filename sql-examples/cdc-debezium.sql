-- Change data capture: Debezium change events (inserts, updates, deletes of a products table) read
-- from a shipped file with the debezium-json format, aggregated into a materialized result per category.
--   npx sluice -f sql-examples/cdc-debezium.sql     (from the repository root; no server needed)
-- The file holds 6 inserts, 2 updates (one moves product 103 from 'tools' to 'parts') and 1 delete.

SET 'execution.runtime-mode' = 'streaming';

CREATE TEMPORARY TABLE products (
  id       INT,
  name     STRING,
  category STRING,
  price    DECIMAL(10, 2)
) WITH (
  'connector' = 'filesystem',
  'path' = 'sql-examples/data/cdc',
  'format' = 'debezium-json'
);

-- The changelog as it arrives: +I for inserts, -U/+U for updates, -D for deletes.
SELECT id, name, category, price FROM products;

-- The materialized view: retractions keep every category's count and sum exact.
SELECT category, COUNT(*) AS products, SUM(price) AS total_price, MAX(price) AS max_price
FROM products
GROUP BY category;
