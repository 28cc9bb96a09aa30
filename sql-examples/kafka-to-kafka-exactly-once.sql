-- Kafka -> Kafka with exactly-once delivery: the copy holds every input record once, even across failures.
-- Needs the bundled broker:  scripts/kafka.sh start   (127.0.0.1:9092)
-- Run it with:              npx sluice -f sql-examples/kafka-to-kafka-exactly-once.sql
-- Both jobs are bounded (scan.bounded.mode = latest-offset), so the file ends on its own. Run it again
-- and the topics simply grow by another 1000 orders; the final SELECT shows the totals of everything.

-- Wait for each INSERT to finish before the next statement (the copy must see all generated orders).
SET 'table.dml-sync' = 'true';
-- Exactly-once commits one Kafka transaction per checkpoint.
SET 'execution.checkpointing.interval' = '1 s';

CREATE TEMPORARY TABLE generated_orders (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2)
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '1000',
  'fields.order_id.kind' = 'sequence',
  'fields.order_id.start' = '1',
  'fields.order_id.end' = '1000',
  'fields.customer.length' = '1',
  'fields.amount.min' = '1',
  'fields.amount.max' = '100'
);

-- The input topic; written at-least-once by the generator.
CREATE TEMPORARY TABLE orders (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'sluice-example-orders',
  'properties.bootstrap.servers' = '127.0.0.1:9092',
  'format' = 'json',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset'
);

-- The output topic: transactional writes, keyed by order_id.
CREATE TEMPORARY TABLE orders_copy (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2),
  source_partition INT METADATA FROM 'partition' VIRTUAL
) WITH (
  'connector' = 'kafka',
  'topic' = 'sluice-example-orders-copy',
  'properties.bootstrap.servers' = '127.0.0.1:9092',
  'key.format' = 'json',
  'key.fields' = 'order_id',
  'value.format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = 'sluice-example-orders-copy',
  -- 15 minutes: the broker's default 'transaction.max.timeout.ms'. Flink's Kafka sink asks for 1 hour,
  -- which such a broker refuses, so on a Flink cluster (sluice --endpoint) the job would never start.
  'properties.transaction.timeout.ms' = '900000',
  'properties.isolation.level' = 'read_committed',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset'
);

INSERT INTO orders SELECT * FROM generated_orders;

INSERT INTO orders_copy SELECT order_id, customer, amount FROM orders;

-- Read the copy back (read_committed): as many rows as orders, and each order id once per run.
SET 'execution.runtime-mode' = 'batch';
SELECT COUNT(*) AS copied_rows, COUNT(DISTINCT order_id) AS distinct_orders, SUM(amount) AS total_amount FROM orders_copy;
