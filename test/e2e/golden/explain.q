# EXPLAIN as Flink's SQL client prints it for a datagen table with a computed column and a watermark
# (shape and output format from Flink's sql-client test resources, table.q "test explain").

CREATE TABLE IF NOT EXISTS clicks (
 `uid` BIGINT NOT NULL,
 page VARCHAR(32),
 dwell INT,
 ts TIMESTAMP(3),
 ptime AS PROCTIME(),
 PRIMARY KEY(`uid`) NOT ENFORCED,
 WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS
) with (
 'connector' = 'datagen'
);
[INFO] Execute statement succeeded.
!info

CREATE TABLE IF NOT EXISTS clicks_out (
 `uid` BIGINT NOT NULL,
 page VARCHAR(32),
 dwell INT,
 ts TIMESTAMP(3),
 PRIMARY KEY(`uid`) NOT ENFORCED
) with (
 'connector' = 'blackhole'
);
[INFO] Execute statement succeeded.
!info

explain plan for select `uid`, page from clicks;
== Abstract Syntax Tree ==
LogicalProject(uid=[$0], page=[$1])
+- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])
   +- LogicalProject(uid=[$0], page=[$1], dwell=[$2], ts=[$3], ptime=[PROCTIME()])
      +- LogicalTableScan(table=[[default_catalog, default_database, clicks]])

== Optimized Physical Plan ==
Calc(select=[uid, page])
+- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)])
   +- Calc(select=[uid, page, ts])
      +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[uid, page, dwell, ts])

== Optimized Execution Plan ==
Calc(select=[uid, page])
+- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   +- Calc(select=[uid, page, ts])
      +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[uid, page, dwell, ts])
!ok

explain insert into clicks_out select `uid`, page, dwell, ts from clicks;
== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.clicks_out], fields=[uid, page, dwell, ts])
+- LogicalProject(uid=[$0], page=[$1], dwell=[$2], ts=[$3])
   +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])
      +- LogicalProject(uid=[$0], page=[$1], dwell=[$2], ts=[$3], ptime=[PROCTIME()])
         +- LogicalTableScan(table=[[default_catalog, default_database, clicks]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.clicks_out], fields=[uid, page, dwell, ts])
+- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)])
   +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[uid, page, dwell, ts])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.clicks_out], fields=[uid, page, dwell, ts])
+- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[uid, page, dwell, ts])
!ok
