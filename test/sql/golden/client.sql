-- SQL client, SET/SHOW/DESCRIBE/EXPLAIN/INSERT/statement sets
SET;
SET 'execution.runtime-mode' = 'streaming';
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.exec.state.ttl' = '1 h';
SET table.planner = blink;
RESET;
RESET 'execution.runtime-mode';
USE CATALOG my_catalog;
USE my_db;
USE my_catalog.my_db;
USE MODULES hive, core;
SHOW CATALOGS;
SHOW DATABASES;
SHOW DATABASES FROM cat1 LIKE '%db%';
SHOW TABLES;
SHOW TABLES FROM db1;
SHOW TABLES IN cat1.db1 NOT LIKE 'x%';
SHOW TABLES ILIKE 'Orders%';
SHOW VIEWS;
SHOW FUNCTIONS;
SHOW USER FUNCTIONS;
SHOW MODULES;
SHOW FULL MODULES;
SHOW JOBS;
SHOW JARS;
SHOW CURRENT CATALOG;
SHOW CURRENT DATABASE;
SHOW CREATE TABLE Orders;
SHOW CREATE VIEW MyView;
SHOW COLUMNS FROM Orders;
SHOW COLUMNS IN cat.db.Orders NOT LIKE '%_id';
SHOW PROCEDURES;
DESC Orders;
DESCRIBE Orders;
DESCRIBE EXTENDED cat.db.Orders;
EXPLAIN PLAN FOR SELECT `count`, COUNT(word) FROM MyTable1 WHERE word LIKE 'F%' GROUP BY `count`;
EXPLAIN ESTIMATED_COST, CHANGELOG_MODE, JSON_EXECUTION_PLAN SELECT `count`, COUNT(word) FROM MyTable1 GROUP BY `count`;
EXPLAIN INSERT INTO sink SELECT * FROM src;
EXPLAIN STATEMENT SET BEGIN INSERT INTO a SELECT * FROM s; INSERT INTO b SELECT * FROM s; END;
INSERT INTO country_page_view
SELECT `user`, cnt FROM page_view_source;
INSERT INTO country_page_view PARTITION (`date`='2019-8-30', country='China')
  SELECT `user`, cnt FROM page_view_source;
INSERT OVERWRITE country_page_view PARTITION (`date`='2019-8-30')
  SELECT `user`, cnt, country FROM page_view_source;
INSERT INTO country_page_view PARTITION (`date`='2019-8-30', country='China') (`user`)
  SELECT `user` FROM page_view_source;
INSERT INTO students
  VALUES ('fred flintstone', 35, 1.28), ('barney rubble', 32, 2.32);
INSERT INTO kafka_table /*+ OPTIONS('sink.partitioner'='round-robin') */ SELECT * FROM src;
INSERT INTO t (a, b) SELECT x, y FROM u;
INSERT INTO t (SELECT x, y FROM u);
EXECUTE STATEMENT SET
BEGIN
INSERT INTO pageviews SELECT page_id, count(1) FROM pageviews GROUP BY page_id;
INSERT INTO uniqueview SELECT page_id, count(distinct user_id) FROM pageviews GROUP BY page_id;
END;
EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT CASE WHEN x THEN 1 END FROM s; END;
BEGIN STATEMENT SET;
INSERT INTO pageviews SELECT page_id, count(1) FROM pageviews GROUP BY page_id;
END;
EXECUTE INSERT INTO sink SELECT * FROM src;
EXECUTE SELECT * FROM src;
STOP JOB '228d70913eab60dda85c5e7f78b5782c';
STOP JOB '228d70913eab60dda85c5e7f78b5782c' WITH SAVEPOINT;
STOP JOB '228d70913eab60dda85c5e7f78b5782c' WITH SAVEPOINT WITH DRAIN;
HELP;
QUIT;
EXIT;
CLEAR;
LOAD MODULE hive WITH ('hive-version' = '3.1.3');
LOAD MODULE core;
UNLOAD MODULE core;
ADD JAR '/path/hello.jar';
REMOVE JAR '/path/hello.jar';
TRUNCATE TABLE t1;
DELETE FROM t1 WHERE id > 5;
