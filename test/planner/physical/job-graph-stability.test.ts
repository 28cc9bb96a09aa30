// The job graphs of representative queries, pinned: the physical plan layer (src/planner/physical/) decides the
// exchanges lowering builds, and moving that decision there must not change any graph. A graph is fingerprinted by its
// vertices (kind, name, parallelism, operators), its edges (ends, input, partitioner) and, for a hash edge, the keys it
// computes for two sample rows, so a hash on other fields or by another key function shows as a difference.
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import type { JobGraph } from '../../../src/runtime/job-graph.js';
import { parseStatement } from '../../../src/sql/parse.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';

const env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false });
env.getConfig().set('parallelism.default', '3');
const ddl = [
  "CREATE TABLE a (id INT, k INT, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'number-of-rows' = '5')",
  "CREATE TABLE b (k2 INT, w INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5')",
  "CREATE TABLE pk_out (k INT, c BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'print', 'sink.parallelism' = '2')",
  "CREATE TABLE pk_same (k INT, c BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'blackhole')",
  "CREATE TABLE out1 (id INT, k INT) WITH ('connector' = 'blackhole')",
  "CREATE TABLE out2 (id INT, k INT) WITH ('connector' = 'blackhole')",
];
const ready = (async () => {
  for (const d of ddl) await env.executeSql(d);
})();
afterAll(() => env.close());

const SAMPLES = [new Row(RowKind.INSERT, [3, 7, 11n, 5, 2, 9, 4, 8]), new Row(RowKind.INSERT, [10, -1, 0n, 6, 1, 3, 7, 2])];

function fingerprint(g: JobGraph): unknown {
  return {
    vertices: g.vertices.map((v) => ({ id: v.id, kind: v.kind, name: v.name, parallelism: v.parallelism, operators: (v.operators ?? []).map((o) => o.name) })),
    edges: g.edges.map((e) => ({
      from: e.from,
      to: e.to,
      input: e.inputIndex ?? 0,
      partitioner: e.partitioner.kind,
      ...(e.partitioner.kind === 'hash' ? { keys: SAMPLES.map((r) => String((e.partitioner as { key: (r: Row) => unknown }).key(r))) } : {}),
    })),
  };
}

async function graph(sql: string, config: Record<string, string> = {}): Promise<JobGraph> {
  await ready;
  const conf = env.getConfig();
  for (const [k, v] of Object.entries(config)) conf.set(k, v);
  try {
    return await plan(sql);
  } finally {
    for (const k of Object.keys(config)) conf.remove(k);
  }
}

async function plan(sql: string): Promise<JobGraph> {
  const stmt = parseStatement(sql);
  if (stmt.kind === 'query') return (await env.planner.planQuery(stmt.query)).toJobGraph({ push: () => undefined, end: () => undefined });
  if (stmt.kind === 'insert') return (await env.planner.planInserts([stmt])).toJobGraph();
  if (stmt.kind === 'statement-set') return (await env.planner.planInserts(stmt.inserts)).toJobGraph();
  throw new Error(`not a query or INSERT: ${sql}`);
}

const ONE_PHASE = { 'table.optimizer.agg-phase-strategy': 'ONE_PHASE' };
const TUMBLE = "TABLE(TUMBLE(TABLE a, DESCRIPTOR(ts), INTERVAL '1' SECOND))";

const QUERIES: Record<string, string | readonly [string, Record<string, string>]> = {
  'group by': 'SELECT k, COUNT(*), SUM(v) FROM a GROUP BY k',
  'global aggregate': 'SELECT COUNT(*) FROM a',
  'window aggregate': "SELECT k, window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE a, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY k, window_start, window_end",
  'window aggregate without keys': "SELECT window_start, window_end, SUM(v) FROM TABLE(HOP(TABLE a, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '2' SECOND)) GROUP BY window_start, window_end",
  join: 'SELECT a.id, b.w FROM a JOIN b ON a.k = b.k2',
  'join over an aggregate': 'SELECT x.k, x.c, b.w FROM (SELECT k, COUNT(*) AS c FROM a GROUP BY k) x JOIN b ON x.k = b.k2',
  'semi join': 'SELECT id FROM a WHERE k IN (SELECT k2 FROM b)',
  'not in': 'SELECT id FROM a WHERE k NOT IN (SELECT k2 FROM b)',
  'interval join': "SELECT x.id FROM a x JOIN a y ON x.k = y.k AND x.ts BETWEEN y.ts - INTERVAL '1' SECOND AND y.ts",
  'top-n': 'SELECT * FROM (SELECT id, k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM a) WHERE rn <= 2',
  'global top-n': 'SELECT id FROM a ORDER BY v LIMIT 2',
  over: 'SELECT id, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM a',
  'over without partition': 'SELECT id, SUM(v) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM a',
  union: 'SELECT id, k FROM a UNION ALL SELECT k2, w FROM b',
  'union distinct': 'SELECT k FROM a UNION SELECT k2 FROM b',
  'sink with a primary key and its own parallelism': 'INSERT INTO pk_out SELECT k, COUNT(*) FROM a GROUP BY k',
  'sink with a primary key': 'INSERT INTO pk_same SELECT k, COUNT(*) FROM a GROUP BY k',
  'shared scan': 'EXECUTE STATEMENT SET BEGIN INSERT INTO out1 SELECT id, k FROM a WHERE k > 1; INSERT INTO out2 SELECT id, k FROM a WHERE k > 1; END',
  'self join on a shared scan': 'SELECT x.id FROM a x JOIN a y ON x.k = y.id',
  'one-phase window aggregate': [`SELECT k, window_start, COUNT(*) FROM ${TUMBLE} GROUP BY k, window_start, window_end`, ONE_PHASE],
  'one-phase window aggregate without keys, filtered': [`SELECT window_end, SUM(v) FROM ${TUMBLE} WHERE k > 1 GROUP BY window_start, window_end`, ONE_PHASE],
  'window top-n': `SELECT * FROM (SELECT k, v, window_start, window_end, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY v DESC) AS rn FROM ${TUMBLE}) WHERE rn <= 2`,
  'cascaded window aggregate': `SELECT window_start, window_end, COUNT(*) FROM (SELECT k, window_start, window_end, COUNT(*) AS c FROM ${TUMBLE} GROUP BY k, window_start, window_end) GROUP BY window_start, window_end`,
  'match recognize': 'SELECT * FROM a MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts MEASURES A.id AS aid ONE ROW PER MATCH PATTERN (A B) DEFINE B AS B.v > A.v)',
  'keyed shuffle forced into a sink with a primary key': ['INSERT INTO pk_same SELECT k, COUNT(*) FROM a GROUP BY k', { 'table.exec.sink.keyed-shuffle': 'FORCE' }],
  'count distinct': 'SELECT k, COUNT(DISTINCT v) FROM a GROUP BY k',
};

describe('job graphs stay as they were before the physical plan layer', () => {
  for (const [name, q] of Object.entries(QUERIES)) {
    it(name, async () => {
      const [sql, config] = typeof q === 'string' ? [q, {}] : q;
      await expect(JSON.stringify(fingerprint(await graph(sql, config)), null, 1)).toMatchFileSnapshot(`job-graphs/${name.replace(/[^a-z0-9]+/g, '-')}.json`);
    });
  }
});
