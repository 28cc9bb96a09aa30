-- Sluice quickstart: generate a bounded stream of orders, aggregate it, and print the result.
-- Run it with:  npx sluice -f sql-examples/quickstart.sql   (no server needed)

SET 'execution.runtime-mode' = 'batch';

CREATE TEMPORARY TABLE orders (
  order_id   BIGINT,
  customer   STRING,
  amount     DECIMAL(10, 2),
  quantity   INT
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '1000',
  'fields.order_id.kind' = 'sequence',
  'fields.order_id.start' = '1',
  'fields.order_id.end' = '1000',
  'fields.customer.length' = '1',
  'fields.amount.min' = '1',
  'fields.amount.max' = '500',
  'fields.quantity.min' = '1',
  'fields.quantity.max' = '10'
);

CREATE TEMPORARY TABLE big_orders (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2)
) WITH (
  'connector' = 'print',
  'print-identifier' = 'big'
);

-- A bounded INSERT job: the file runner waits for it before exiting.
SET 'table.dml-sync' = 'true';
INSERT INTO big_orders
SELECT order_id, customer, amount FROM orders WHERE order_id <= 5;

-- A query prints its result as a table.
SELECT COUNT(*) AS orders, MIN(order_id) AS first_id, MAX(order_id) AS last_id FROM orders;
