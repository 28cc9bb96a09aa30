-- Format goldens from a real Apache Flink: scripts/flink-goldens.sh runs this with scripts/flink-reference.sh and copies
-- what it writes into test/formats/flink-goldens/ (filesystem sinks under fs/<golden file name>/, -- @golden outputs).
-- The rows are those of test/formats/flink-goldens/rows.ts (row 1 is SCALAR_ROW of test/formats/fixtures.ts); keep both in step.
SET 'execution.runtime-mode' = 'batch';

CREATE TEMPORARY VIEW scalars AS SELECT * FROM (VALUES
  (TRUE, CAST(-128 AS TINYINT), CAST(32767 AS SMALLINT), -2147483648, CAST(9007199254740993 AS BIGINT),
   CAST(1.5 AS FLOAT), CAST(0.1 AS DOUBLE), CAST('12345678901234567890.123456789012345678' AS DECIMAL(38, 18)),
   CAST('a "quoted", text' || CHR(10) || 'with ü' AS STRING), CAST(X'6B030B' AS BYTES), DATE '2020-01-01', TIME '12:34:56',
   TIMESTAMP '2020-01-01 12:00:00.123', TO_TIMESTAMP_LTZ(1577880000123, 3)),
  (CAST(NULL AS BOOLEAN), CAST(NULL AS TINYINT), CAST(NULL AS SMALLINT), CAST(NULL AS INT), CAST(NULL AS BIGINT),
   CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(38, 18)), CAST(NULL AS STRING), CAST(NULL AS BYTES),
   CAST(NULL AS DATE), CAST(NULL AS TIME(0)), CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS TIMESTAMP_LTZ(3))),
  (FALSE, CAST(127 AS TINYINT), CAST(-32768 AS SMALLINT), 2147483647, CAST(-9223372036854775807 AS BIGINT) - 1,
   CAST(-0.25 AS FLOAT), CAST(1.0E-7 AS DOUBLE), CAST('-0.000000000000000001' AS DECIMAL(38, 18)),
   CAST('' AS STRING), CAST(X'' AS BYTES), DATE '2020-02-29', TIME '23:59:59',
   TIMESTAMP '1969-12-31 23:59:59.999', TO_TIMESTAMP_LTZ(-1, 3)),
  (TRUE, CAST(0 AS TINYINT), CAST(0 AS SMALLINT), 0, CAST(0 AS BIGINT),
   CAST(1.0E10 AS FLOAT), CAST(1.0E7 AS DOUBLE), CAST(-1.5 AS DECIMAL(38, 18)),
   CAST('comma,semi;pipe|quote''s "dq" back\slash' || CHR(9) || 'tab 日本語 🎉' AS STRING), CAST(X'00FF' AS BYTES),
   DATE '1969-12-31', TIME '00:00:00', TIMESTAMP '2024-02-29 23:59:59.001', TO_TIMESTAMP_LTZ(1709251199001, 3)),
  (FALSE, CAST(1 AS TINYINT), CAST(1 AS SMALLINT), 1, CAST(1 AS BIGINT),
   CAST(0.001 AS FLOAT), CAST(-1.7976931348623157E308 AS DOUBLE), CAST(0 AS DECIMAL(38, 18)),
   CAST(' lead and trail ' AS STRING), CAST(X'20' AS BYTES),
   DATE '0001-01-01', TIME '01:02:03', TIMESTAMP '2020-01-01 00:00:00.120', TO_TIMESTAMP_LTZ(1577836800000, 3))
) AS t(b, ti, si, i, big, f, d, `dec`, s, `bytes`, dt, tm, ts, ltz);

CREATE TEMPORARY VIEW nested AS SELECT * FROM (VALUES
  (1, ARRAY[1, CAST(NULL AS INT), 3], ARRAY['a', '', CAST(NULL AS STRING)], MAP['k1', 1, 'k2', CAST(NULL AS INT)],
   ROW(7, 'seven', ARRAY[CAST(0.5 AS DOUBLE), -1.0]),
   ARRAY[ROW(CAST(1 AS BIGINT), CAST(1.25 AS DECIMAL(5, 2))), ROW(CAST(-2 AS BIGINT), CAST(-0.5 AS DECIMAL(5, 2)))]),
  (2, CAST(NULL AS ARRAY<INT>), CAST(NULL AS ARRAY<STRING>), CAST(NULL AS MAP<STRING, INT>),
   CAST(NULL AS ROW<x INT, y STRING, z ARRAY<DOUBLE>>), CAST(NULL AS ARRAY<ROW<a BIGINT, b DECIMAL(5, 2)>>)),
  (3, ARRAY[-7], ARRAY['x,y;z'], MAP['only', 0],
   ROW(CAST(NULL AS INT), CAST(NULL AS STRING), CAST(NULL AS ARRAY<DOUBLE>)),
   ARRAY[ROW(CAST(NULL AS BIGINT), CAST(NULL AS DECIMAL(5, 2))), ROW(CAST(100 AS BIGINT), CAST(100.00 AS DECIMAL(5, 2)))])
) AS t(id, arr, sarr, m, r, rows_);

CREATE TEMPORARY VIEW null_key AS SELECT 1 AS id, MAP[CAST(NULL AS STRING), 1, 'k', 2] AS m;

-- Schemas for the sinks' LIKE clauses (a LIKE source cannot be a view; these tables are never read).
CREATE TABLE scalars_schema (b BOOLEAN, ti TINYINT, si SMALLINT, i INT, big BIGINT, f FLOAT, d DOUBLE, `dec` DECIMAL(38, 18),
  s STRING, `bytes` BYTES, dt DATE, tm TIME(0), ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3)) WITH ('connector' = 'datagen');
CREATE TABLE nested_schema (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, m MAP<STRING, INT>,
  r ROW<x INT, y STRING, z ARRAY<DOUBLE>>, rows_ ARRAY<ROW<a BIGINT, b DECIMAL(5, 2)>>) WITH ('connector' = 'datagen');
CREATE TABLE null_key_schema (id INT, m MAP<STRING, INT>) WITH ('connector' = 'datagen');

-- json: defaults and each encode-side option.
CREATE TABLE json_default WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/json-default.json', 'format' = 'json') LIKE scalars_schema (EXCLUDING OPTIONS);
CREATE TABLE json_plain_decimal WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/json-plain-decimal.json', 'format' = 'json',
  'json.encode.decimal-as-plain-number' = 'true') LIKE scalars_schema (EXCLUDING OPTIONS);
CREATE TABLE json_iso WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/json-iso-8601.json', 'format' = 'json',
  'json.timestamp-format.standard' = 'ISO-8601') LIKE scalars_schema (EXCLUDING OPTIONS);
CREATE TABLE json_ignore_nulls WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/json-ignore-null-fields.json', 'format' = 'json',
  'json.encode.ignore-null-fields' = 'true') LIKE scalars_schema (EXCLUDING OPTIONS);
CREATE TABLE json_nested WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/json-nested.json', 'format' = 'json') LIKE nested_schema (EXCLUDING OPTIONS);
CREATE TABLE json_null_key_literal WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/json-map-null-key-literal.json', 'format' = 'json',
  'json.map-null-key.mode' = 'LITERAL', 'json.map-null-key.literal' = 'nullkey') LIKE null_key_schema (EXCLUDING OPTIONS);
CREATE TABLE json_null_key_drop WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/json-map-null-key-drop.json', 'format' = 'json',
  'json.map-null-key.mode' = 'DROP') LIKE null_key_schema (EXCLUDING OPTIONS);

-- csv: defaults and a few options.
CREATE TABLE csv_default WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/csv-default.csv', 'format' = 'csv') LIKE scalars_schema (EXCLUDING OPTIONS);
CREATE TABLE csv_pipe_quote WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/csv-pipe-single-quote.csv', 'format' = 'csv',
  'csv.field-delimiter' = '|', 'csv.quote-character' = '''') LIKE scalars_schema (EXCLUDING OPTIONS);
CREATE TABLE csv_null_literal WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/csv-null-literal-escape.csv', 'format' = 'csv',
  'csv.null-literal' = 'NULL', 'csv.escape-character' = '\') LIKE scalars_schema (EXCLUDING OPTIONS);
CREATE TABLE csv_plain_decimal WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/csv-plain-decimal.csv', 'format' = 'csv',
  'csv.write-bigdecimal-in-scientific-notation' = 'false') LIKE scalars_schema (EXCLUDING OPTIONS);
-- csv has no MAP ("Unsupported type"), nor collections inside a ROW ("Only simple types are supported in the second
-- level nesting"): the nested csv table keeps what it can write.
CREATE TABLE csv_nested (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, r ROW<x INT, y STRING>)
  WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/csv-nested.csv', 'format' = 'csv');

-- raw: one STRING column (the file sink ends each message with a newline).
CREATE TABLE raw_string (s STRING) WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/fs/raw-string.txt', 'format' = 'raw');

-- print: what the TaskManager writes to stdout (captured into the golden).
CREATE TABLE print_scalars WITH ('connector' = 'print') LIKE scalars_schema (EXCLUDING OPTIONS);
CREATE TABLE print_nested WITH ('connector' = 'print', 'print-identifier' = 'nested') LIKE nested_schema (EXCLUDING OPTIONS);

EXECUTE STATEMENT SET BEGIN
  INSERT INTO json_default SELECT * FROM scalars;
  INSERT INTO json_plain_decimal SELECT * FROM scalars;
  INSERT INTO json_iso SELECT * FROM scalars;
  INSERT INTO json_ignore_nulls SELECT * FROM scalars;
  INSERT INTO json_nested SELECT * FROM nested;
  INSERT INTO json_null_key_literal SELECT * FROM null_key;
  INSERT INTO json_null_key_drop SELECT * FROM null_key;
  INSERT INTO csv_default SELECT * FROM scalars;
  INSERT INTO csv_pipe_quote SELECT * FROM scalars;
  INSERT INTO csv_null_literal SELECT * FROM scalars;
  INSERT INTO csv_plain_decimal SELECT * FROM scalars;
  INSERT INTO raw_string SELECT s FROM scalars WHERE s IS NOT NULL;
END;

-- Alone, so that a type csv cannot write fails only this job.
-- Read from json_nested: a ROW built in VALUES has no field names (EXPR$0...), the json table's has.
INSERT INTO csv_nested SELECT n.id, n.arr, n.sarr, ROW(n.r.x, n.r.y) FROM json_nested AS n;

-- What Flink reads back from the files it wrote (Sluice's decoders are compared with these), unabridged.
-- Flink cannot read its own csv NULL row back by default (empty INT field: NumberFormatException For input
-- string: ""), so the csv files without a null-literal are read with csv.ignore-parse-errors.
-- @golden read-json-default.tsv
-- @tsv
SELECT * FROM json_default;
-- @golden read-json-plain-decimal.tsv
-- @tsv
SELECT * FROM json_plain_decimal;
-- @golden read-json-iso-8601.tsv
-- @tsv
SELECT * FROM json_iso;
-- @golden read-json-ignore-null-fields.tsv
-- @tsv
SELECT * FROM json_ignore_nulls;
-- @golden read-json-nested.tsv
-- @tsv
SELECT * FROM json_nested;
-- @golden read-csv-default.tsv
-- @tsv
SELECT * FROM csv_default /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */;
-- @golden read-csv-pipe-single-quote.tsv
-- @tsv
SELECT * FROM csv_pipe_quote /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */;
-- @golden read-csv-null-literal-escape.tsv
-- @tsv
SELECT * FROM csv_null_literal;
-- @golden read-csv-nested.tsv
-- @tsv
SELECT * FROM csv_nested /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */;

-- @golden print-scalars.txt
INSERT INTO print_scalars SELECT * FROM scalars;

-- @golden print-nested.txt
INSERT INTO print_nested SELECT * FROM nested;

-- Tableau (TableResult.print(), batch) and CAST(x AS STRING) of every type.
-- @golden tableau-scalars.txt
SELECT * FROM scalars;

-- @golden tableau-nested.txt
SELECT * FROM nested;

-- CAST(x AS STRING) unabridged: one tab-separated line per row (tab, newline, backslash escaped; NULL as \N).
-- @golden cast-to-string.tsv
-- @tsv
SELECT CAST(b AS STRING) AS b, CAST(ti AS STRING) AS ti, CAST(si AS STRING) AS si, CAST(i AS STRING) AS i,
  CAST(big AS STRING) AS big, CAST(f AS STRING) AS f, CAST(d AS STRING) AS d, CAST(`dec` AS STRING) AS `dec`,
  CAST(s AS STRING) AS s, CAST(`bytes` AS STRING) AS `bytes`, CAST(dt AS STRING) AS dt, CAST(tm AS STRING) AS tm,
  CAST(ts AS STRING) AS ts, CAST(ltz AS STRING) AS ltz FROM scalars;

-- @golden cast-to-string-nested.tsv
-- @tsv
SELECT id, CAST(arr AS STRING) AS arr, CAST(sarr AS STRING) AS sarr, CAST(m AS STRING) AS m, CAST(r AS STRING) AS r,
  CAST(rows_ AS STRING) AS rows_ FROM nested;

-- Changelog formats need updates: a streaming GROUP BY over VALUES (+I a, +I b, -U a, +U a).
SET 'execution.runtime-mode' = 'streaming';

CREATE TEMPORARY VIEW changelog AS
  SELECT k, COUNT(*) AS cnt, SUM(v) AS total FROM (VALUES ('a', 1), ('b', 2), ('a', 3)) AS t(k, v) GROUP BY k;

CREATE TABLE debezium_sink (k STRING, cnt BIGINT, total INT) WITH ('connector' = 'filesystem',
  'path' = '${OUT_DIR}/fs/debezium-json.json', 'format' = 'debezium-json');
CREATE TABLE canal_sink (k STRING, cnt BIGINT, total INT) WITH ('connector' = 'filesystem',
  'path' = '${OUT_DIR}/fs/canal-json.json', 'format' = 'canal-json');
CREATE TABLE print_changelog (k STRING, cnt BIGINT, total INT) WITH ('connector' = 'print');

INSERT INTO debezium_sink SELECT * FROM changelog;

INSERT INTO canal_sink SELECT * FROM changelog;

-- @golden print-changelog.txt
INSERT INTO print_changelog SELECT * FROM changelog;

-- @golden read-debezium-json.tsv
-- @tsv
SELECT * FROM debezium_sink;

-- @golden read-canal-json.tsv
-- @tsv
SELECT * FROM canal_sink;

-- @golden tableau-changelog.txt
SELECT * FROM changelog;
