// Window Top-N, window deduplication and cascaded window aggregates (optimize.ts detectWindowRank /
// detectCascadedWindowAggregate, logical/window-properties.ts): a ROW_NUMBER partitioned by window_start and
// window_end of the window its input carries is planned per window and insert-only, as Flink plans WindowRank /
// WindowDeduplicate. The expected node lines are a real Flink 2.3.0's EXPLAIN CHANGELOG_MODE of the same statements
// over the same table (WindowRankITCase's T1).
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

const T1 =
  "CREATE TABLE T1 (`rowtime` TIMESTAMP(3), `int` INT, `double` DOUBLE, `float` FLOAT, `bigdec` DECIMAL(10, 2), `string` STRING, `name` STRING, WATERMARK FOR `rowtime` AS `rowtime` - INTERVAL '1' SECOND) WITH ('connector' = 'datagen', 'number-of-rows' = '5')";
const P =
  "CREATE TABLE P (`rowtime` TIMESTAMP(3), `int` INT, `name` STRING, pt AS PROCTIME(), WATERMARK FOR `rowtime` AS `rowtime` - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')";
const envs = new Map<string, TableEnvironment>();

async function env(mode: 'streaming' | 'batch'): Promise<TableEnvironment> {
  let e = envs.get(mode);
  if (e === undefined) {
    e = TableEnvironment.create({ mode, discoverPackages: false });
    await e.executeSql(T1);
    await e.executeSql(P);
    envs.set(mode, e);
  }
  return e;
}
afterAll(async () => {
  for (const e of envs.values()) await e.close();
});

/** The optimized physical plan of EXPLAIN CHANGELOG_MODE, its lines without the tree prefixes. */
async function physical(sql: string, mode: 'streaming' | 'batch' = 'streaming'): Promise<string[]> {
  const e = await env(mode);
  for await (const row of (await e.executeSql(`EXPLAIN CHANGELOG_MODE ${sql}`)).collect()) {
    const text = String(row.fields[0]);
    const plan = text.slice(text.indexOf('== Optimized Physical Plan ==') + 30, text.indexOf('== Optimized Execution Plan =='));
    return plan.trim().split('\n').map((l) => l.replace(/^[\s+|-]*/, ''));
  }
  throw new Error('no plan');
}

const tvf = 'TABLE(TUMBLE(TABLE T1, DESCRIPTOR(rowtime), INTERVAL \'5\' SECOND))';
const topN = (partition: string, order: string, bound: string, from = tvf): string =>
  `SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY ${partition} ORDER BY ${order}) AS rownum FROM ${from}) WHERE ${bound}`;

describe('window Top-N over a window TVF', () => {
  it('is a WindowRank keyed by the other partition keys, insert-only, as Flink prints it', async () => {
    const p = await physical(topN('window_start, window_end, `name`', '`int` DESC', 'rownum <= 2'));
    expect(p).toContain(
      'WindowRank(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=2], partitionBy=[name], orderBy=[int DESC], select=[rowtime, int, double, float, bigdec, string, name, window_start, window_end, window_time, w0$o0], changelogMode=[I])',
    );
    expect(p).toContain('Exchange(distribution=[hash[name]], changelogMode=[I])');
  });

  it('runs in one subtask when the window is the only partition, HOP and several order keys alike', async () => {
    const hop = "TABLE(HOP(TABLE T1, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '10' SECOND))";
    const p = await physical(topN('window_start, window_end', '`int` DESC, `double`', 'rownum <= 1', hop));
    expect(p).toContain(
      'WindowRank(window=[HOP(win_start=[window_start], win_end=[window_end], size=[10 s], slide=[5 s])], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=1], partitionBy=[], orderBy=[int DESC, double ASC], select=[rowtime, int, double, float, bigdec, string, name, window_start, window_end, window_time], changelogMode=[I])',
    );
    expect(p).toContain('Exchange(distribution=[single], changelogMode=[I])');
  });

  it('is a WindowDeduplicate for the first or last row by rowtime', async () => {
    const last = await physical(topN('window_start, window_end, `name`', 'rowtime DESC', 'rownum <= 1'));
    expect(last).toContain(
      'WindowDeduplicate(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], keep=[LastRow], partitionKeys=[name], orderKey=[rowtime], order=[ROWTIME], changelogMode=[I])',
    );
    const cumulate = "TABLE(CUMULATE(TABLE T1, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '15' SECOND))";
    const first = await physical(topN('window_start, window_end, `name`', 'rowtime', 'rownum = 1', cumulate));
    expect(first).toContain(
      'WindowDeduplicate(window=[CUMULATE(win_start=[window_start], win_end=[window_end], max_size=[15 s], step=[5 s])], keep=[FirstRow], partitionKeys=[name], orderKey=[rowtime], order=[ROWTIME], changelogMode=[I])',
    );
  });

  it('stays an updating Top-N when the partition lacks window_end, and a plain Rank in batch mode', async () => {
    const p = await physical(topN('window_start, `name`', '`int` DESC', 'rownum <= 2'));
    expect(p.find((l) => l.startsWith('Rank('))).toMatch(/changelogMode=\[I,UB,UA,D\]\)$/);
    const batch = await physical(topN('window_start, window_end, `name`', '`int` DESC', 'rownum <= 2'), 'batch');
    expect(batch.some((l) => l.startsWith('WindowRank'))).toBe(false);
  });

  it('refuses processing-time windows as Flink does, and deduplicates by a PROCTIME() order on an event-time window', async () => {
    const e = await env('streaming');
    const byPt = "TABLE(TUMBLE(TABLE P, DESCRIPTOR(pt), INTERVAL '5' SECOND))";
    await expect(e.executeSql(`EXPLAIN ${topN('window_start, window_end, `name`', '`int` DESC', 'rownum <= 2', byPt)}`)).rejects.toThrow('Processing time Window TopN is not supported yet.');
    await expect(e.executeSql(`EXPLAIN ${topN('window_start, window_end, `name`', 'pt DESC', 'rownum <= 1', byPt)}`)).rejects.toThrow('Processing time Window Deduplication is not supported yet.');
    const p = await physical(topN('window_start, window_end, `name`', 'pt DESC', 'rownum <= 1', "TABLE(TUMBLE(TABLE P, DESCRIPTOR(rowtime), INTERVAL '5' SECOND))"));
    expect(p).toContain('WindowDeduplicate(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], keep=[LastRow], partitionKeys=[name], orderKey=[pt], order=[ROWTIME], changelogMode=[I])');
  });

  it('refuses RANK() as Flink does', async () => {
    const e = await env('streaming');
    const sql = `EXPLAIN SELECT * FROM (SELECT *, RANK() OVER (PARTITION BY window_start, window_end, \`name\` ORDER BY \`int\` DESC) AS rownum FROM ${tvf}) WHERE rownum <= 2`;
    await expect(e.executeSql(sql)).rejects.toThrow('RANK() function is not supported on Window TopN currently, only ROW_NUMBER() is supported.');
  });
});

describe('over a window aggregate', () => {
  const agg = `(SELECT window_start, window_end, \`name\`, COUNT(*) AS cnt FROM ${tvf} GROUP BY window_start, window_end, \`name\`)`;

  it('a Top-N partitioned by the window is a WindowRank', async () => {
    const p = await physical(topN('window_start, window_end', 'cnt DESC', 'rownum <= 1', agg));
    expect(p).toContain(
      'WindowRank(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=1], partitionBy=[], orderBy=[cnt DESC], select=[window_start, window_end, name, cnt], changelogMode=[I])',
    );
  });

  it('a GROUP BY window_start, window_end is a cascaded window aggregate; without window_end an updating one', async () => {
    const cascaded = await physical(`SELECT window_start, window_end, SUM(cnt) FROM ${agg} GROUP BY window_start, window_end`);
    expect(cascaded[0]).toMatch(/^WindowAggregate\(window=\[TUMBLE\(win_start=\[window_start\], win_end=\[window_end\], size=\[5 s\]\)\], .*changelogMode=\[I\]\)$/);
    const grouped = await physical(`SELECT window_start, SUM(cnt) FROM ${agg} GROUP BY window_start`);
    expect(grouped[0]).toMatch(/^GroupAggregate\(.*changelogMode=\[I,UB,UA\]\)$/);
  });

  it('a GROUP BY window_start, window_end over a window Top-N is a window aggregate too', async () => {
    const ranked = topN('window_start, window_end, `name`', '`int` DESC', 'rownum <= 2');
    const p = await physical(`SELECT window_start, window_end, COUNT(*) FROM (${ranked}) GROUP BY window_start, window_end`);
    expect(p.some((l) => /^WindowAggregate\(window=\[TUMBLE\(win_start/.test(l))).toBe(true);
    expect(p.some((l) => l.startsWith('WindowRank('))).toBe(true);
  });
});
