// MATCH_RECOGNIZE end to end: the Flink docs' examples (docs/content/docs/dev/table/sql/queries/match_recognize.md,
// "Pattern Recognition") over a csv table. Expected rows are what a real Apache Flink 2.3.0 printed for the same
// statements and data (scripts/flink-reference.sh, filesystem csv tables, streaming and batch); where the docs print
// something else it is said at the test.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { typeToString } from '../../src/types/type-to-string.js';

const TICKER = [
  ['10:00:00', 12, 1],
  ['10:00:01', 17, 2],
  ['10:00:02', 19, 1],
  ['10:00:03', 21, 3],
  ['10:00:04', 25, 2],
  ['10:00:05', 18, 1],
  ['10:00:06', 15, 1],
  ['10:00:07', 14, 2],
  ['10:00:08', 24, 2],
  ['10:00:09', 25, 2],
  ['10:00:10', 19, 1],
] as const;

async function rows(env: TableEnvironment, sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r.fields.map((f) => (typeof f === 'number' && f > 1e12 ? new Date(f).toISOString().slice(11, 19) : String(f))).join(','));
  return out;
}

async function tickerEnv(mode: 'streaming' | 'batch', data: readonly (readonly [string, number, number])[], symbol = 'ACME'): Promise<TableEnvironment> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-mr-'));
  mkdirSync(join(dir, 'in'));
  writeFileSync(join(dir, 'in', 'in.csv'), data.map(([t, p, x]) => `${symbol},2011-04-01 ${t},${p},${x}\n`).join(''));
  const env = TableEnvironment.create({ mode });
  const wm = mode === 'streaming' ? ', WATERMARK FOR rowtime AS rowtime' : '';
  await (
    await env.executeSql(
      `CREATE TABLE Ticker (symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT${wm}) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'in')}', 'format' = 'csv')`,
    )
  ).await();
  return env;
}

describe('MATCH_RECOGNIZE', () => {
  let env: TableEnvironment | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  const TICKER_QUERY = `SELECT *
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
    ) MR`;

  for (const mode of ['streaming', 'batch'] as const) {
    it(`finds the docs' falling-price period of the ticker (${mode})`, async () => {
      env = await tickerEnv(mode, TICKER);
      expect(await rows(env, TICKER_QUERY)).toEqual(['ACME,10:00:04,10:00:07,10:00:08']);
    });
  }

  const AVG_TICKER: readonly (readonly [string, number, number])[] = [
    ['10:00:00', 12, 1],
    ['10:00:01', 17, 2],
    ['10:00:02', 13, 1],
    ['10:00:03', 16, 3],
    ['10:00:04', 25, 2],
    ['10:00:05', 2, 1],
    ['10:00:06', 4, 1],
    ['10:00:07', 10, 2],
    ['10:00:08', 15, 2],
    ['10:00:09', 25, 2],
    ['10:00:10', 25, 1],
    ['10:00:11', 30, 1],
  ];

  it("aggregates in DEFINE and MEASURES: the docs' periods whose average price stays below 15", async () => {
    env = await tickerEnv('streaming', AVG_TICKER);
    // AVG of a BIGINT is a BIGINT in Flink; the docs' 14.5 and 13.5 are the averages as DOUBLE, hence the CAST.
    const q = `SELECT * FROM Ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES FIRST(A.rowtime) AS start_tstamp, LAST(A.rowtime) AS end_tstamp, AVG(CAST(A.price AS DOUBLE)) AS avgPrice
        ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A+ B)
        DEFINE A AS AVG(A.price) < 15) MR`;
    expect(await rows(env, q)).toEqual(['ACME,10:00:00,10:00:03,14.5', 'ACME,10:00:05,10:00:10,13.5']);
  });

  const XYZ: readonly (readonly [string, number, number])[] = [
    ['10:00:02', 10, 1],
    ['10:00:03', 11, 2],
    ['10:00:04', 12, 1],
    ['10:00:05', 13, 2],
    ['10:00:06', 14, 1],
    ['10:00:07', 16, 2],
  ];
  const greedy = (b: string): string => `SELECT * FROM Ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES C.price AS lastPrice
        ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A ${b} C)
        DEFINE A AS A.price > 10, B AS B.price < 15, C AS C.price > 12)`;

  for (const mode of ['streaming', 'batch'] as const) {
    it(`a greedy B* swallows the rows C could take, a reluctant B*? does not (docs, ${mode})`, async () => {
      env = await tickerEnv(mode, XYZ, 'XYZ');
      expect(await rows(env, greedy('B*'))).toEqual(['XYZ,16']);
      expect(await rows(env, greedy('B*?'))).toEqual(['XYZ,13', 'XYZ,16']);
    });
  }

  it("WITHIN drops a match spanning more than the interval (the docs' price drop within an hour)", async () => {
    const data: [string, number, number][] = [
      ['10:00:00', 20, 1],
      ['10:20:00', 17, 2],
      ['10:40:00', 18, 1],
      ['11:00:00', 11, 3],
      ['11:20:00', 14, 2],
      ['11:40:00', 9, 1],
      ['12:00:00', 15, 1],
      ['12:20:00', 14, 2],
      ['12:40:00', 24, 2],
      ['13:00:00', 1, 2],
      ['13:20:00', 19, 1],
    ];
    env = await tickerEnv('streaming', data);
    // The docs' DEFINE lacks the comma between B and C, and the docs print 14 (the drop from 12:00 to 13:00); Flink
    // 2.3.0 prints 13: a partial match whose rows span the interval or more is dropped (12:00 to 13:00 is 1 h).
    const q = `SELECT * FROM Ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES C.rowtime AS dropTime, A.price - C.price AS dropDiff
        ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B* C) WITHIN INTERVAL '1' HOUR
        DEFINE B AS B.price > A.price - 10, C AS C.price < A.price - 10)`;
    expect(await rows(env, q)).toEqual(['ACME,13:00:00,13']);
  });

  it("ONE ROW PER MATCH gives the partition keys then the measures; without AFTER MATCH Flink skips to the next row (docs' output mode example)", async () => {
    env = await tickerEnv('streaming', XYZ.slice(0, 3).concat([['10:00:05', 11, 2]]).map(([t, p, x], i) => [t, [10, 12, 13, 11][i]!, x] as const), 'XYZ');
    const q = `SELECT * FROM Ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES FIRST(A.price) AS startPrice, LAST(A.price) AS topPrice, B.price AS lastPrice
        ONE ROW PER MATCH
        PATTERN (A+ B)
        DEFINE A AS LAST(A.price, 1) IS NULL OR A.price > LAST(A.price, 1), B AS B.price < LAST(A.price))`;
    // The docs print only the first row; Flink 2.3.0 also finds the matches starting at 12 and 13.
    expect(await rows(env, q)).toEqual(['XYZ,10,13,11', 'XYZ,12,13,11', 'XYZ,13,13,11']);
  });

  const SKIPS: readonly (readonly [string, number, number])[] = [
    ['10:00:01', 7, 1],
    ['10:00:02', 9, 2],
    ['10:00:03', 10, 1],
    ['10:00:04', 5, 2],
    ['10:00:05', 10, 2],
    ['10:00:06', 7, 2],
    ['10:00:07', 14, 2],
  ];
  const skipQuery = (skip: string): string => `SELECT * FROM Ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES SUM(A.price) AS sumPrice, FIRST(rowtime) AS startTime, LAST(rowtime) AS endTime
        ONE ROW PER MATCH ${skip}
        PATTERN (A+ C)
        DEFINE A AS SUM(A.price) < 30)`;

  it("AFTER MATCH SKIP strategies give the docs' rows", async () => {
    env = await tickerEnv('streaming', SKIPS, 'XYZ');
    expect(await rows(env, skipQuery('AFTER MATCH SKIP PAST LAST ROW'))).toEqual(['XYZ,26,10:00:01,10:00:04', 'XYZ,17,10:00:05,10:00:07']);
    expect(await rows(env, skipQuery('AFTER MATCH SKIP TO NEXT ROW'))).toEqual([
      'XYZ,26,10:00:01,10:00:04',
      'XYZ,24,10:00:02,10:00:05',
      'XYZ,25,10:00:03,10:00:06',
      'XYZ,22,10:00:04,10:00:07',
      'XYZ,17,10:00:05,10:00:07',
    ]);
    expect(await rows(env, skipQuery('AFTER MATCH SKIP TO LAST A'))).toEqual(['XYZ,26,10:00:01,10:00:04', 'XYZ,25,10:00:03,10:00:06', 'XYZ,17,10:00:05,10:00:07']);
    await expect(rows(env, skipQuery('AFTER MATCH SKIP TO FIRST A'))).rejects.toThrow('Could not skip to first element of a match.');
  });

  const skipRows = (pattern: string, define: string, measures: string): string => `SELECT * FROM Ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime MEASURES ${measures}
        ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW PATTERN (${pattern}) DEFINE ${define})`;

  it('a reluctant {2,}? and an optional ? that is not greedy (rows from Flink 2.3.0)', async () => {
    env = await tickerEnv('streaming', SKIPS, 'XYZ');
    expect(await rows(env, skipRows('A{2,}? C', 'A AS A.price < 11, C AS C.price > 6', 'FIRST(A.price) AS p1, LAST(A.price) AS p2, COUNT(A.price) AS n'))).toEqual([
      'XYZ,7,9,2',
      'XYZ,9,5,3',
      'XYZ,10,5,2',
      'XYZ,5,10,2',
      'XYZ,10,7,2',
    ]);
    // B? does not keep a row C can take: the match without B is found first and, ending first, wins.
    expect(await rows(env, skipRows('A B? C', 'A AS A.price < 10, B AS B.price > 8, C AS C.price < 11', 'FIRST(A.price) AS p1, LAST(B.price) AS p2, COUNT(B.price) AS n'))).toEqual([
      'XYZ,7,null,0',
      'XYZ,9,null,0',
      'XYZ,5,null,0',
    ]);
  });

  it('PREV(price, n) is the n-th row before the current one in the match, PREV(v.price, 0) the current row', async () => {
    env = await tickerEnv('streaming', SKIPS, 'XYZ');
    // Rising runs of three: 7 9 10, then 5 10 (7 falls), 7 14.
    const q = skipRows('A B C', 'B AS PREV(price) < B.price, C AS PREV(C.price, 0) > PREV(price, 1) AND PREV(price, 2) < C.price', 'A.price AS a, C.price AS c');
    expect(await rows(env, q)).toEqual(['XYZ,7,10']);
  });

  it.each<[string, string, string, string[]]>([
    ['FIRST(A.price) AS f, LAST(A.price) AS l, B.price AS b', 'A{2} B', 'A AS A.price < 10', ['XYZ,7,9,10']],
    ['FIRST(A.price) AS f, LAST(A.price) AS l, B.price AS b', 'A{1,3} B', 'A AS A.price < 11', ['XYZ,5,7,14', 'XYZ,10,7,14', 'XYZ,7,7,14']],
    ['FIRST(A.price) AS f, LAST(A.price) AS l, COUNT(A.price) AS n, B.price AS b', 'A{2,} B', 'A AS A.price < 11', ['XYZ,7,7,6,14', 'XYZ,9,7,5,14', 'XYZ,10,7,4,14', 'XYZ,5,7,3,14', 'XYZ,10,7,2,14']],
    [
      'FIRST(A.price) AS f, LAST(A.price) AS l, COUNT(A.price) AS n, B.price AS b',
      'A+? B',
      'A AS A.price < 11, B AS B.price > 8',
      ['XYZ,7,7,1,9', 'XYZ,9,9,1,10', 'XYZ,10,5,2,10', 'XYZ,5,5,1,10', 'XYZ,10,7,2,14', 'XYZ,7,7,1,14'],
    ],
    ['FIRST(A.price) AS f, COUNT(B.price) AS n, C.price AS c', 'A B* C', 'A AS A.price < 10, B AS B.price > 6, C AS C.price > 9', []],
    ['FIRST(A.price) AS f, COUNT(B.price) AS n, C.price AS c', 'A B{1,2}? C', 'A AS A.price < 10, B AS B.price > 6, C AS C.price > 4', ['XYZ,7,1,10', 'XYZ,9,1,5', 'XYZ,5,1,7']],
    [
      'FIRST(A.price) AS f, AVG(A.price) AS av, MIN(A.price) AS mi, MAX(A.price) AS ma, SUM(price) AS s, COUNT(*) AS n',
      'A+ B',
      'A AS MAX(A.price) - MIN(A.price) < 5, B AS B.price > 0',
      ['XYZ,7,8,7,10,31,4', 'XYZ,9,9,9,10,24,3', 'XYZ,10,10,10,10,15,2', 'XYZ,5,5,5,5,15,2', 'XYZ,10,8,7,10,31,3', 'XYZ,7,7,7,7,21,2'],
    ],
  ])('%s PATTERN (%s) gives the rows of Flink 2.3.0', async (measures, pattern, define, expected) => {
    env = await tickerEnv('streaming', SKIPS, 'XYZ');
    expect(await rows(env, skipRows(pattern, define, measures))).toEqual(expected);
  });

  it('MATCH_ROWTIME() is a rowtime attribute a window TVF can use downstream (rows of Flink 2.3.0)', async () => {
    env = await tickerEnv('streaming', SKIPS, 'XYZ');
    await (
      await env.executeSql(
        'CREATE TEMPORARY VIEW M AS SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES SUM(A.price) AS s, MATCH_ROWTIME() AS mt AFTER MATCH SKIP TO NEXT ROW PATTERN (A+ C) DEFINE A AS SUM(A.price) < 30)',
      )
    ).await();
    const q = "SELECT window_start, COUNT(*) AS n, SUM(s) AS total FROM TABLE(TUMBLE(TABLE M, DESCRIPTOR(mt), INTERVAL '2' SECOND)) GROUP BY window_start, window_end";
    expect(await rows(env, q)).toEqual(['10:00:04,2,50', '10:00:06,3,64']);
  });

  it('MATCH_ROWTIME(rowtime_field) has the field\'s type, MATCH_ROWTIME() is TIMESTAMP(3) over a TIMESTAMP_LTZ rowtime (types and rows of Flink 2.3.0)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-mr-ltz-'));
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in', 'in.csv'), '1,a,10,1704103200000\n1,b,20,1704103201000\n1,a,5,1704103202000\n1,b,30,1704103203000\n');
    env = TableEnvironment.create({ mode: 'streaming', config: { 'table.local-time-zone': 'Asia/Shanghai' } });
    await env.executeSql(
      `CREATE TABLE t (k INT, v STRING, p INT, e BIGINT, ts AS TO_TIMESTAMP_LTZ(e, 3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
       WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'in')}', 'format' = 'csv')`,
    );
    const q =
      "SELECT k, mt, mt2, CAST(mt AS STRING) AS smt, CAST(mt2 AS STRING) AS smt2, ap FROM t MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts MEASURES MATCH_ROWTIME() AS mt, MATCH_ROWTIME(ts) AS mt2, A.p AS ap ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (A B) DEFINE A AS A.v = 'a', B AS B.v = 'b')";
    const result = await env.executeSql(q);
    expect(result.getResolvedSchema().columnTypes().map((t) => typeToString(t)).slice(1, 3)).toEqual(['TIMESTAMP(3) NOT NULL *ROWTIME*', 'TIMESTAMP_LTZ(3) NOT NULL *ROWTIME*']);
    const out: string[] = [];
    for await (const r of result.collect()) out.push(r.fields.slice(3).join(','));
    // Flink 2.3.0 in Asia/Shanghai: mt 2024-01-01 10:00:01.000 (the instant's UTC wall clock), mt2 18:00:01.
    expect(out).toEqual(['2024-01-01 10:00:01.000,2024-01-01 18:00:01.000,10', '2024-01-01 10:00:03.000,2024-01-01 18:00:03.000,5']);
    await expect(
      env.executeSql("SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts MEASURES MATCH_ROWTIME(p) AS bad ONE ROW PER MATCH PATTERN (A B) DEFINE A AS A.v = 'a')"),
    ).rejects.toThrow("The function MATCH_ROWTIME requires argument to be a row time attribute type, but is 'INTEGER'.");
  });

  it('refuses what Flink refuses, with its messages', async () => {
    env = await tickerEnv('streaming', SKIPS, 'XYZ');
    const q = (body: string): Promise<string[]> => rows(env!, `SELECT * FROM Ticker MATCH_RECOGNIZE (${body})`);
    await expect(q('PARTITION BY symbol ORDER BY rowtime MEASURES PREV(C.price, 1) AS x PATTERN (A C) DEFINE A AS true')).rejects.toThrow("Cannot use PREV/NEXT in MEASURE 'PREV(`C`.`price`, 1)'");
    await expect(q('ORDER BY price MEASURES A.price AS x PATTERN (A B) DEFINE A AS true')).rejects.toThrow('You must specify either rowtime or proctime for order by as the first one.');
    await expect(q('ORDER BY rowtime DESC MEASURES A.price AS x PATTERN (A B) DEFINE A AS true')).rejects.toThrow('Primary sort order of a streaming table must be ascending on time.');
    await expect(q('MEASURES A.price AS x PATTERN (A B) DEFINE A AS true')).rejects.toThrow('You must specify either rowtime or proctime for order by.');
    await expect(q('ORDER BY rowtime MEASURES A.price AS x ALL ROWS PER MATCH PATTERN (A B) DEFINE A AS true')).rejects.toThrow('All rows per match mode is not supported yet.');
    await expect(q('ORDER BY rowtime MEASURES A.price AS x PATTERN (A B+) DEFINE A AS true')).rejects.toThrow('Greedy quantifiers are not allowed as the last element of a Pattern yet.');
    await expect(q('ORDER BY rowtime MEASURES A.price AS x PATTERN (A*) DEFINE A AS true')).rejects.toThrow('Patterns that can produce empty matches are not supported.');
    await expect(q('ORDER BY rowtime MEASURES A.price AS x PATTERN (A?? B) DEFINE A AS true')).rejects.toThrow('Reluctant optional variables are not supported yet.');
    // Flink 2.3.0 accepts {,m} and {0,m} at planning and then fails the job with this message.
    await expect(q('ORDER BY rowtime MEASURES A.price AS x PATTERN (A{,2} B) DEFINE A AS true')).rejects.toThrow('The from should be a positive number greater than 0.');
    await expect(q('ORDER BY rowtime MEASURES COUNT(DISTINCT A.price) AS x PATTERN (A B) DEFINE A AS true')).rejects.toThrow('DISTINCT aggregations are not supported');
    await expect(q('ORDER BY rowtime MEASURES SUM(A.price + B.tax) AS x PATTERN (A B) DEFINE A AS true')).rejects.toThrow('Aggregation must be applied to a single pattern variable');
    await expect(q('PARTITION BY symbol ORDER BY rowtime MEASURES A.symbol AS symbol PATTERN (A B) DEFINE A AS true')).rejects.toThrow('Columns ambiguously defined: {symbol}');
    await expect(q('ORDER BY rowtime MEASURES CLASSIFIER() AS x PATTERN (A B) DEFINE A AS true')).rejects.toThrow('CLASSIFIER() is not supported');
    await expect(q('ORDER BY rowtime MEASURES A.price AS x PATTERN (A B) DEFINE A AS NEXT(A.price) > 1')).rejects.toThrow('NEXT is not supported');
    await expect(q('ORDER BY rowtime MEASURES A.price AS x PATTERN (A B) DEFINE B AS PREV(B.price) > 1')).rejects.toThrow('Flink does not support physical offsets within partition.');
  });

  it('refuses an updating input, as Flink', async () => {
    env = await tickerEnv('streaming', SKIPS, 'XYZ');
    await (await env.executeSql("CREATE TEMPORARY VIEW T AS SELECT symbol, price, PROCTIME() AS pt FROM Ticker")).await();
    await expect(
      rows(env, 'SELECT * FROM (SELECT symbol, MAX(price) AS price, MAX(pt) AS pt FROM T GROUP BY symbol) MATCH_RECOGNIZE (ORDER BY pt MEASURES A.symbol AS s PATTERN (A B) DEFINE A AS true)'),
    ).rejects.toThrow("Match Recognize doesn't support consuming update changes which is produced by node GroupAggregate(");
  });

  it('processing time: rows are matched in arrival order, MATCH_PROCTIME() is a proctime attribute', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-mr-'));
    mkdirSync(join(dir, 'in'));
    // Arrival order is file order; the timestamps say otherwise and must not matter.
    writeFileSync(join(dir, 'in', 'in.csv'), 'XYZ,2011-04-01 10:00:09,1,1\nXYZ,2011-04-01 10:00:01,20,1\nXYZ,2011-04-01 10:00:05,2,1\nXYZ,2011-04-01 10:00:02,30,1\n');
    env = TableEnvironment.create({ mode: 'streaming' });
    await (
      await env.executeSql(
        `CREATE TABLE T (symbol STRING, ts TIMESTAMP(3), price BIGINT, tax BIGINT, pt AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'in')}', 'format' = 'csv')`,
      )
    ).await();
    const q = `SELECT symbol, a, b, mp IS NOT NULL FROM T MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY pt
        MEASURES A.price AS a, B.price AS b, MATCH_PROCTIME() AS mp AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B) DEFINE A AS A.price < 10, B AS B.price > 10)`;
    expect(await rows(env, q)).toEqual(['XYZ,1,20,true', 'XYZ,2,30,true']);
    const plan: string[] = [];
    for await (const r of (await env.executeSql(`EXPLAIN ${q}`)).collect()) plan.push(String(r.fields[0]));
    expect(plan.join('')).toContain('Match(partitionBy=[symbol], orderBy=[pt ASC], measures=[FINAL(A.price) AS a, FINAL(B.price) AS b, FINAL(MATCH_PROCTIME()) AS mp]');
  });
});
