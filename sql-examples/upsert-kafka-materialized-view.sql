-- A materialized view in Kafka: revenue per customer, kept up to date in an upsert topic (one key per customer).
-- Needs the bundled broker:  scripts/kafka.sh start   (127.0.0.1:9092)
-- Run it with:              npx sluice -f sql-examples/upsert-kafka-materialized-view.sql
-- Bounded (scan.bounded.mode = latest-offset), so the file ends on its own. Each run adds 500 purchases
-- and the view's totals grow accordingly.

SET 'table.dml-sync' = 'true';

CREATE TEMPORARY TABLE generated_purchases (
  purchase_id BIGINT,
  amount      INT
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '500',
  'fields.purchase_id.kind' = 'sequence',
  'fields.purchase_id.start' = '1',
  'fields.purchase_id.end' = '500',
  'fields.amount.min' = '1',
  'fields.amount.max' = '20'
);

-- Append-only input topic.
CREATE TEMPORARY TABLE purchases (
  customer STRING,
  amount   INT
) WITH (
  'connector' = 'kafka',
  'topic' = 'sluice-example-customer-purchases',
  'properties.bootstrap.servers' = '127.0.0.1:9092',
  'format' = 'json',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset'
);

-- The view: one record per change of a customer's total, keyed by customer (latest record wins).
CREATE TEMPORARY TABLE revenue_per_customer (
  customer  STRING,
  purchases BIGINT,
  revenue   BIGINT,
  PRIMARY KEY (customer) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'sluice-example-customer-revenue',
  'properties.bootstrap.servers' = '127.0.0.1:9092',
  'key.format' = 'json',
  'value.format' = 'json',
  -- Reduce by key in a buffer: only the latest total per customer is written per flush.
  'sink.buffer-flush.max-rows' = '1000',
  'sink.buffer-flush.interval' = '1 s',
  'scan.bounded.mode' = 'latest-offset'
);

-- Five customers, c0 .. c4, 100 purchases each.
INSERT INTO purchases SELECT CONCAT('c', CAST(MOD(purchase_id, 5) AS STRING)), amount FROM generated_purchases;

-- A streaming aggregate: every new purchase updates its customer's row in the view.
INSERT INTO revenue_per_customer
SELECT customer, COUNT(*) AS purchases, CAST(SUM(amount) AS BIGINT) AS revenue FROM purchases GROUP BY customer;

-- Reading the upsert topic gives the view as a changelog: +I for a customer's first record, +U for
-- later ones (a second run of this file shows the totals updated).
SELECT customer, purchases, revenue FROM revenue_per_customer;
