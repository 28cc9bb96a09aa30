-- CREATE TABLE examples from Flink's connector and DDL documentation
CREATE TABLE KafkaTable (
  `user_id` BIGINT,
  `item_id` BIGINT,
  `behavior` STRING,
  `ts` TIMESTAMP(3) METADATA FROM 'timestamp'
) WITH (
  'connector' = 'kafka',
  'topic' = 'user_behavior',
  'properties.bootstrap.servers' = 'localhost:9092',
  'properties.group.id' = 'testGroup',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'csv'
);

CREATE TABLE KafkaTable (
  `event_time` TIMESTAMP(3) METADATA FROM 'timestamp',
  `partition` BIGINT METADATA VIRTUAL,
  `offset` BIGINT METADATA VIRTUAL,
  `user_id` BIGINT,
  `item_id` BIGINT,
  `behavior` STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'user_behavior',
  'properties.bootstrap.servers' = 'localhost:9092',
  'properties.group.id' = 'testGroup',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'csv'
);

CREATE TABLE KafkaTable (
  `event_time` TIMESTAMP(3) METADATA FROM 'value.source.timestamp' VIRTUAL,
  `origin_table` STRING METADATA FROM 'value.source.table' VIRTUAL,
  `partition_id` BIGINT METADATA FROM 'partition' VIRTUAL,
  `offset` BIGINT METADATA VIRTUAL,
  `user_id` BIGINT,
  `item_id` BIGINT,
  `behavior` STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'user_behavior',
  'properties.bootstrap.servers' = 'localhost:9092',
  'properties.group.id' = 'testGroup',
  'scan.startup.mode' = 'earliest-offset',
  'value.format' = 'debezium-json'
);

CREATE TABLE KafkaTable (
  `ts` TIMESTAMP(3) METADATA FROM 'timestamp',
  `user_id` BIGINT,
  `item_id` BIGINT,
  `behavior` STRING
) WITH (
  'connector' = 'kafka',
  'key.format' = 'json',
  'key.json.ignore-parse-errors' = 'true',
  'key.fields' = 'user_id;item_id',
  'value.format' = 'json',
  'value.json.fail-on-missing-field' = 'false',
  'value.fields-include' = 'ALL'
);

CREATE TABLE pageviews_per_region (
  user_region STRING,
  pv BIGINT,
  uv BIGINT,
  PRIMARY KEY (user_region) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'pageviews_per_region',
  'properties.bootstrap.servers' = '...',
  'key.format' = 'avro',
  'value.format' = 'avro'
);

CREATE TABLE pageviews (
  user_id BIGINT,
  page_id BIGINT,
  viewtime TIMESTAMP,
  user_region STRING,
  WATERMARK FOR viewtime AS viewtime - INTERVAL '2' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'pageviews',
  'properties.bootstrap.servers' = '...',
  'format' = 'json'
);

CREATE TABLE MyUserTable (
  column_name1 INT,
  column_name2 STRING,
  part_name1 INT,
  part_name2 STRING
) PARTITIONED BY (part_name1, part_name2) WITH (
  'connector' = 'filesystem',
  'path' = 'file:///path/to/whatever',
  'format' = 'json',
  'partition.default-name' = '__DEFAULT_PARTITION__',
  'sink.partition-commit.trigger' = 'partition-time',
  'sink.partition-commit.delay' = '1 h',
  'sink.partition-commit.policy.kind' = 'success-file'
);

CREATE TABLE fs_table (
  user_id STRING,
  order_amount DOUBLE,
  dt STRING,
  `hour` STRING
) PARTITIONED BY (dt, `hour`) WITH (
  'connector' = 'filesystem',
  'path' = '...',
  'format' = 'parquet',
  'sink.partition-commit.delay' = '1 h',
  'sink.partition-commit.policy.kind' = 'success-file'
);

CREATE TABLE Orders (
  order_number BIGINT,
  price DECIMAL(32, 2),
  buyer ROW<first_name STRING, last_name STRING>,
  order_time TIMESTAMP(3)
) WITH (
  'connector' = 'datagen'
);

CREATE TABLE datagen (
  f_sequence INT,
  f_random INT,
  f_random_str STRING,
  ts AS localtimestamp,
  WATERMARK FOR ts AS ts
) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '5',
  'fields.f_sequence.kind' = 'sequence',
  'fields.f_sequence.start' = '1',
  'fields.f_sequence.end' = '1000',
  'fields.f_random.min' = '1',
  'fields.f_random.max' = '1000',
  'fields.f_random_str.length' = '10'
);

CREATE TABLE MyUserTable (
  id BIGINT,
  name STRING,
  age INT,
  status BOOLEAN,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'jdbc',
  'url' = 'jdbc:mysql://localhost:3306/mydatabase',
  'table-name' = 'users'
);

CREATE TABLE print_table (
  f0 INT,
  f1 INT,
  f2 STRING,
  f3 DOUBLE
) WITH (
  'connector' = 'print'
);

CREATE TABLE print_table WITH ('connector' = 'print') LIKE source_table (EXCLUDING ALL);

CREATE TABLE blackhole_table WITH ('connector' = 'blackhole') LIKE source_table (EXCLUDING ALL);

CREATE TABLE Orders (
  `user` BIGINT,
  product STRING,
  order_time TIMESTAMP(3)
) WITH (
  'connector' = 'kafka',
  'scan.startup.mode' = 'earliest-offset'
);

CREATE TABLE Orders_with_watermark (
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
  'scan.startup.mode' = 'latest-offset'
)
LIKE Orders;

CREATE TABLE Orders_in_file (
  `user` BIGINT,
  product STRING,
  order_time_string STRING,
  order_time AS to_timestamp(order_time)
) PARTITIONED BY (`user`) WITH (
  'connector' = 'filesystem',
  'path' = '...'
);

CREATE TABLE Orders_in_kafka (
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka'
)
LIKE Orders_in_file (
  EXCLUDING ALL
  INCLUDING GENERATED
);

CREATE TABLE MyTable (
  `user_id` BIGINT,
  `name` STRING,
  `record_time` TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'
) WITH (
  'connector' = 'kafka'
);

CREATE TABLE MyTable (
  `user_id` BIGINT,
  `price` DOUBLE,
  `quantity` DOUBLE,
  `cost` AS price * quantity
) WITH (
  'connector' = 'kafka'
);

CREATE TABLE MyTable (
  `user_id` BIGINT,
  `name` STRING,
  `ts` TIMESTAMP(3) WITHOUT TIME ZONE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka'
);

CREATE TABLE user_actions (
  user_name STRING,
  data STRING,
  user_action_time AS PROCTIME()
) WITH (
  'connector' = 'datagen'
);

CREATE TABLE user_actions (
  user_name STRING,
  data STRING,
  ts BIGINT,
  time_ltz AS TO_TIMESTAMP_LTZ(ts, 3),
  WATERMARK FOR time_ltz AS time_ltz - INTERVAL '5' SECOND
) WITH (
  'connector' = 'datagen'
);

CREATE TEMPORARY TABLE IF NOT EXISTS cat1.db1.all_types (
  a TINYINT NOT NULL,
  b SMALLINT,
  c INTEGER,
  d BIGINT,
  e FLOAT,
  f DOUBLE PRECISION,
  g DECIMAL(38, 10),
  h DEC(10),
  i NUMERIC,
  j CHAR(3),
  k VARCHAR(255),
  l STRING,
  m BINARY(4),
  n VARBINARY(20),
  o BYTES,
  p DATE,
  q TIME(3),
  r TIMESTAMP(9),
  s TIMESTAMP(3) WITH LOCAL TIME ZONE,
  t TIMESTAMP_LTZ(6),
  u INTERVAL DAY TO SECOND(3),
  v INTERVAL YEAR TO MONTH,
  w ARRAY<INT NOT NULL>,
  x STRING ARRAY,
  y MAP<STRING, ARRAY<ROW<a INT, b STRING>>>,
  z MULTISET<STRING>,
  aa ROW(f1 INT, f2 STRING),
  ab ROW<f1 INT 'the first field', f2 BOOLEAN NOT NULL>,
  ac BOOLEAN NULL,
  ad RAW('java.lang.String', 'AAA='),
  ae INT NOT NULL PRIMARY KEY NOT ENFORCED COMMENT 'the key'
) COMMENT 'all the types'
WITH (
  'connector' = 'datagen'
);

CREATE TABLE t_constraint (
  id INT,
  name STRING,
  CONSTRAINT pk_id PRIMARY KEY (id, name) NOT ENFORCED
) WITH ('connector' = 'values');

CREATE TABLE my_ctas_table
WITH (
  'connector' = 'kafka'
)
AS SELECT id, name, age FROM source_table WHERE mod(id, 10) = 0;

CREATE TABLE my_ctas_table (
  desc STRING,
  quantity DOUBLE,
  cost AS price * quantity,
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka'
) AS SELECT id, price, quantity, order_time FROM source_table;

CREATE VIEW MyView1 AS SELECT * FROM MyTable;

CREATE TEMPORARY VIEW IF NOT EXISTS v2 (a, b) COMMENT 'a view' AS SELECT x, y FROM t WHERE x > 1;

CREATE CATALOG my_catalog WITH (
  'type' = 'generic_in_memory'
);

CREATE CATALOG myhive WITH (
  'type' = 'hive',
  'hive-conf-dir' = '/opt/hive-conf'
);

CREATE DATABASE IF NOT EXISTS db1 COMMENT 'db comment' WITH ('k1' = 'v1');

CREATE DATABASE mycat.db2;

CREATE FUNCTION IF NOT EXISTS myfunc AS 'com.example.MyFunction' LANGUAGE JAVA;

CREATE TEMPORARY FUNCTION f2 AS 'com.example.F' LANGUAGE SCALA;

CREATE TEMPORARY FUNCTION f3 AS 'com.example.F' USING JAR '/opt/udfs/f.jar';

CREATE FUNCTION f4 AS 'com.example.F' LANGUAGE JAVA USING JAR 'hdfs:///udfs/a.jar', JAR '/opt/udfs/b.jar';

CREATE TEMPORARY SYSTEM FUNCTION upper_py AS 'udfs.upper' LANGUAGE PYTHON;

CREATE FUNCTION cat.db.js_fn AS './udf/fn.js' LANGUAGE JAVASCRIPT;

DROP TABLE IF EXISTS cat.db.t;

DROP TEMPORARY TABLE t;

DROP VIEW IF EXISTS v;

DROP TEMPORARY VIEW v;

DROP FUNCTION IF EXISTS f;

DROP TEMPORARY SYSTEM FUNCTION IF EXISTS f;

DROP DATABASE IF EXISTS db1 CASCADE;

DROP DATABASE db1 RESTRICT;

DROP CATALOG IF EXISTS c1;

ALTER TABLE Orders RENAME TO NewOrders;

ALTER TABLE IF EXISTS Orders SET ('connector' = 'kafka', 'scan.startup.mode' = 'earliest-offset');

ALTER TABLE Orders RESET ('scan.startup.mode');

ALTER TABLE MyTable ADD category_id STRING COMMENT 'identifier of the category';

ALTER TABLE MyTable ADD (
  log_ts STRING COMMENT 'log timestamp string' FIRST,
  ts AS TO_TIMESTAMP(log_ts) AFTER log_ts,
  PRIMARY KEY (id) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
);

ALTER TABLE MyTable MODIFY measurement double COMMENT 'unit is bytes per second' AFTER `id`;

ALTER TABLE MyTable MODIFY (
  log_ts STRING COMMENT 'log timestamp string' AFTER `id`,
  PRIMARY KEY (id) NOT ENFORCED,
  WATERMARK FOR ts AS ts
);

ALTER TABLE MyTable DROP measurement;

ALTER TABLE MyTable DROP (col1, col2, col3);

ALTER TABLE MyTable DROP PRIMARY KEY;

ALTER TABLE MyTable DROP WATERMARK;

ALTER TABLE MyTable RENAME request_body TO payload;

ALTER VIEW v1 RENAME TO v2;

ALTER VIEW v1 AS SELECT a, b FROM t2;

ALTER DATABASE db1 SET ('k1' = 'a', 'k2' = 'b');
