-- Sluice's Pravega catalog: Pravega scopes are databases, and streams whose schema is registered in the Pravega Schema
-- Registry are tables. CREATE TABLE creates the stream and registers the columns as an Avro schema once; every later
-- job (Sluice's, Flink's, a Java application's) finds the schema there instead of declaring it again. INSERT writes
-- events in the registry's encoding (a header with the writer schema's encoding id, then Avro).
-- Needs Pravega at tcp://127.0.0.1:9090 and the Pravega Schema Registry at http://127.0.0.1:9097:
--   scripts/pravega.sh start && scripts/pravega-registry.sh start
-- Run it with:  npx sluice -f sql-examples/pravega-catalog.sql
-- Running it again appends the readings once more (the table already exists, so CREATE TABLE IF NOT EXISTS keeps it).

SET 'execution.runtime-mode' = 'batch';
SET 'table.dml-sync' = 'true';

-- The catalog's default database must be an existing scope. The plain pravega connector creates a missing scope
-- and stream when it writes, so this one-row INSERT makes sure 'sluice-examples' exists.
CREATE TEMPORARY TABLE example_notes (note STRING) WITH (
  'connector' = 'pravega',
  'controller-uri' = 'tcp://127.0.0.1:9090',
  'scope' = 'sluice-examples',
  'sink.stream' = 'catalog-example-notes',
  'format' = 'json'
);
INSERT INTO example_notes VALUES ('the pravega-catalog example ran');

CREATE CATALOG pravega WITH (
  'type' = 'pravega',
  'controller-uri' = 'tcp://127.0.0.1:9090',
  'schema-registry-uri' = 'http://127.0.0.1:9097',
  'default-database' = 'sluice-examples'
);
USE CATALOG pravega;

-- No WITH clause: the catalog supplies the connector, the stream and the 'pravega-registry' format.
CREATE TABLE IF NOT EXISTS readings (
  sensor    STRING NOT NULL,
  reading   DOUBLE,
  taken_at  TIMESTAMP(3)
);

SHOW TABLES;
DESCRIBE readings;

INSERT INTO readings VALUES
  ('boiler', 71.5, TIMESTAMP '2024-05-01 10:00:00.000'),
  ('boiler', 73.0, TIMESTAMP '2024-05-01 10:01:00.000'),
  ('cellar', 12.25, TIMESTAMP '2024-05-01 10:00:30.000'),
  ('attic', CAST(NULL AS DOUBLE), TIMESTAMP '2024-05-01 10:02:00.000');

-- A bounded read of the table: its catalog definition plus where the scan ends (up to the tail seen at start).
CREATE TEMPORARY TABLE readings_so_far WITH ('scan.execution.type' = 'batch') LIKE readings;

SELECT sensor, COUNT(*) AS readings, MAX(reading) AS highest
FROM readings_so_far
GROUP BY sensor;
