-- EXPLAIN goldens from a real Apache Flink (scripts/flink-goldens.sh explain -> test/planner/flink-explain-goldens/).
-- Queries and DDL of test/e2e/golden/explain.q (clicks*) and test/planner/explain-flink.test.ts (MyTable*, MySink, T);
-- that test's sources are unbounded test tables, here unbounded datagen tables with the same schemas.
SET 'execution.runtime-mode' = 'streaming';

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

CREATE TABLE IF NOT EXISTS clicks_out (
 `uid` BIGINT NOT NULL,
 page VARCHAR(32),
 dwell INT,
 ts TIMESTAMP(3),
 PRIMARY KEY(`uid`) NOT ENFORCED
) with (
 'connector' = 'blackhole'
);

CREATE TABLE MyTable (a INT, b BIGINT, c STRING) WITH ('connector' = 'datagen');
CREATE TABLE MyTable1 (`count` BIGINT, word VARCHAR(256)) WITH ('connector' = 'datagen');
CREATE TABLE MyTable2 (`count` BIGINT, word VARCHAR(256)) WITH ('connector' = 'datagen');
CREATE TABLE MySink (d INT, e BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE T (a INT, b BIGINT, c STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'datagen');

-- First, so that its stream node ids (a JVM-wide counter) are as small as a fresh session's.
-- @golden json-execution-plan.txt
EXPLAIN JSON_EXECUTION_PLAN SELECT a FROM MyTable WHERE a > 10;

-- explain.q
-- @golden explain-q-select.txt
explain plan for select `uid`, page from clicks;
-- @golden explain-q-select.changelog.txt
EXPLAIN CHANGELOG_MODE select `uid`, page from clicks;
-- @golden explain-q-insert.txt
explain insert into clicks_out select `uid`, page, dwell, ts from clicks;
-- @golden explain-q-insert.changelog.txt
EXPLAIN CHANGELOG_MODE insert into clicks_out select `uid`, page, dwell, ts from clicks;

-- explain-flink.test.ts, in its order
-- @golden union.txt
EXPLAIN PLAN FOR SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%' UNION ALL SELECT `count`, word FROM MyTable2;
-- @golden union.changelog.txt
EXPLAIN CHANGELOG_MODE SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%' UNION ALL SELECT `count`, word FROM MyTable2;
-- @golden select-where.txt
EXPLAIN SELECT a, b, c FROM MyTable WHERE a > 10;
-- @golden select-where.cost-changelog.txt
EXPLAIN ESTIMATED_COST, CHANGELOG_MODE SELECT a, b, c FROM MyTable WHERE a > 10;
-- @golden insert-where.txt
EXPLAIN INSERT INTO MySink SELECT a, b FROM MyTable WHERE a > 10;
-- @golden insert-where.changelog-cost.txt
EXPLAIN CHANGELOG_MODE, ESTIMATED_COST INSERT INTO MySink SELECT a, b FROM MyTable WHERE a > 10;
-- @golden statement-set.advice.txt
EXPLAIN PLAN_ADVICE STATEMENT SET BEGIN INSERT INTO MySink SELECT a, b FROM MyTable; INSERT INTO MySink SELECT a, b + 1 FROM MyTable; END;
-- @golden statement-set.changelog.txt
EXPLAIN CHANGELOG_MODE STATEMENT SET BEGIN INSERT INTO MySink SELECT a, b FROM MyTable; INSERT INTO MySink SELECT a, b + 1 FROM MyTable; END;
-- @golden window-tvf.txt
EXPLAIN SELECT c, COUNT(*) AS cnt FROM TABLE(TUMBLE(TABLE T, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY c, window_start, window_end;
-- @golden window-tvf.changelog.txt
EXPLAIN CHANGELOG_MODE SELECT c, COUNT(*) AS cnt FROM TABLE(TUMBLE(TABLE T, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY c, window_start, window_end;
-- @golden join.txt
EXPLAIN SELECT * FROM MyTable AS l JOIN MyTable AS r ON l.a = r.a;
-- @golden join.changelog.txt
EXPLAIN CHANGELOG_MODE SELECT * FROM MyTable AS l JOIN MyTable AS r ON l.a = r.a;
-- @golden calc-cast.txt
EXPLAIN SELECT CAST(a AS BIGINT) AS x, b + 1 AS y FROM MyTable WHERE c = 'xx' AND b IS NOT NULL;
-- @golden calc-cast.changelog.txt
EXPLAIN CHANGELOG_MODE SELECT CAST(a AS BIGINT) AS x, b + 1 AS y FROM MyTable WHERE c = 'xx' AND b IS NOT NULL;

-- Proctime first-row deduplication (issue #13): insert-only, the selected rn a literal (RankNumberColumnRemoveRule).
CREATE TABLE first_pages (`uid` BIGINT NOT NULL, page VARCHAR(32), rn BIGINT) WITH ('connector' = 'blackhole');
-- @golden dedup-proctime-first-row.changelog.txt
EXPLAIN CHANGELOG_MODE INSERT INTO first_pages SELECT `uid`, page, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `uid` ORDER BY ptime ASC) AS rn FROM clicks) WHERE rn = 1;

-- MATCH_RECOGNIZE (issue #13): the Flink docs' ticker query, and one with WITHIN, reluctant and {n} quantifiers,
-- aggregates, MATCH_ROWTIME and SKIP TO FIRST.
CREATE TABLE Ticker (symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, WATERMARK FOR rowtime AS rowtime) WITH ('connector' = 'datagen');

-- @golden match-recognize.txt
EXPLAIN SELECT *
FROM Ticker
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            START_ROW.rowtime AS start_tstamp,
            LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
            LAST(PRICE_UP.rowtime) AS end_tstamp
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST PRICE_UP
        PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
        DEFINE
            PRICE_DOWN AS
                (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                    PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
            PRICE_UP AS
                PRICE_UP.price > LAST(PRICE_DOWN.price, 1)
    ) MR;
-- @golden match-recognize-within.txt
EXPLAIN SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES C.rowtime AS dropTime, A.price - C.price AS dropDiff, SUM(B.price) AS s, MATCH_ROWTIME() AS mt, FIRST(B.price, 1) AS fb ONE ROW PER MATCH AFTER MATCH SKIP TO FIRST C PATTERN (A B*? C{2}) WITHIN INTERVAL '1' HOUR DEFINE B AS B.price > A.price - 10 AND SUM(price) < 100, C AS C.price < A.price - 10 AND C.symbol <> 'x');

-- A WHERE between a window TVF and its aggregate: still a window aggregate, the filter below its local phase.
-- @golden window-tvf-where.txt
EXPLAIN SELECT window_start, window_end, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE T, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) WHERE MOD(a, 3) = 0 AND b % 2 = 1 GROUP BY window_start, window_end;

-- A projection pushed into a source that can read metadata (the filesystem connector): `metadata=[]`, and MOD.
CREATE TABLE F (a INT, b BIGINT, c STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/sluice-explain-golden-f', 'format' = 'csv');
-- @golden filesystem-metadata-projection.txt
EXPLAIN SELECT a, MOD(b, 3) AS m, b % 4 AS r FROM F;

-- ESTIMATED_COST over a source without watermark push-down: the WatermarkAssigner adds its own cost, to every node
-- above it (table.q's "explain estimated_cost"). Not yet a golden: the same over a GROUP BY, whose hash Exchange
-- and GroupAggregate Flink costs otherwise (cpu 8.6E9 for the exchange, no memory for the aggregate).
-- @golden explain-q-select.cost.txt
EXPLAIN ESTIMATED_COST SELECT `uid`, page FROM clicks;
-- A projection over a source without watermark push-down goes below the assigner in the order it reads the fields,
-- the rowtime last unless read before (ProjectWatermarkAssignerTransposeRule).
-- @golden watermark-project-order.txt
EXPLAIN SELECT dwell, `uid` + 1 AS u, page FROM clicks;
-- @golden watermark-project-rowtime-first.txt
EXPLAIN SELECT ts, page FROM clicks;
-- PLAN_ADVICE of a GROUP BY without mini-batch: Flink's GroupAggregationAnalyzer advises the local-global two phases.
-- @golden group-by-advice.txt
EXPLAIN PLAN_ADVICE SELECT page, COUNT(*) AS n, MAX(dwell) AS m FROM clicks GROUP BY page;
-- A unique key cast without merging values (Flink 2.3's injective casts, LogicalTypeCasts.supportsInjectiveCast) is
-- still the upsert key: a sink keyed by CAST(group key) takes updates by key, without UPDATE_BEFORE.
CREATE TABLE cast_keyed_big (k BIGINT, c BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'blackhole');
CREATE TABLE cast_keyed_str (k STRING, s INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'blackhole');
-- @golden group-cast-key-bigint.changelog.txt
EXPLAIN CHANGELOG_MODE INSERT INTO cast_keyed_big SELECT CAST(a AS BIGINT), COUNT(*) FROM MyTable GROUP BY a;
-- @golden group-cast-key-string.changelog.txt
EXPLAIN CHANGELOG_MODE INSERT INTO cast_keyed_str SELECT CAST(b AS STRING), SUM(a) FROM MyTable GROUP BY b;
