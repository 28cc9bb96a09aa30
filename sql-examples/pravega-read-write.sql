-- Sluice and Pravega: write 1000 generated orders to a Pravega stream as JSON events (routed by customer, so each
-- customer's orders stay in order), then read the stream back as a bounded table and summarize it.
-- Needs a Pravega controller at tcp://127.0.0.1:9090 (the bundled one: scripts/pravega.sh start).
-- Run it with:  npx sluice -f sql-examples/pravega-read-write.sql
-- The sink creates the scope's stream if it is missing. Running the file again appends another 1000 events; the
-- DISTINCT counts below stay the same, the event count grows.

SET 'execution.runtime-mode' = 'batch';

CREATE TEMPORARY TABLE generated_orders (
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

-- One table both writes ('sink.stream') and reads ('scan.streams'); 'batch' reads up to the tail seen at start.
CREATE TEMPORARY TABLE orders (
  order_id   BIGINT,
  customer   STRING,
  amount     DECIMAL(10, 2),
  quantity   INT,
  event_pointer BYTES METADATA VIRTUAL
) WITH (
  'connector' = 'pravega',
  'controller-uri' = 'tcp://127.0.0.1:9090',
  'scope' = 'sluice-examples',
  'sink.stream' = 'orders',
  'sink.routing-key.field.name' = 'customer',
  'scan.streams' = 'orders',
  'scan.execution.type' = 'batch',
  'format' = 'json'
);

-- Wait for the write to finish before reading.
SET 'table.dml-sync' = 'true';
INSERT INTO orders SELECT order_id, customer, amount, quantity FROM generated_orders;

SELECT
  COUNT(DISTINCT order_id)      AS orders,
  MIN(order_id)                 AS first_id,
  MAX(order_id)                 AS last_id,
  COUNT(DISTINCT event_pointer) AS events
FROM orders;
