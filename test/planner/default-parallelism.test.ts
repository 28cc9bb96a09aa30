// When a session does not set `parallelism.default`, the planner chooses per job (src/planner/default-parallelism.ts):
// every core for a large input or an endless generator, one subtask for a small one or for a source of unknown size.
// A setting always wins.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import type { JobGraph } from '../../src/runtime/job-graph.js';
import { parseStatement } from '../../src/sql/parse.js';
import { defaultParallelism, LARGE_JOB_ROWS } from '../../src/planner/default-parallelism.js';
import { inputBytesAtLeast } from '../../src/connectors/filesystem/input-size.js';

const dir = mkdtempSync(join(tmpdir(), 'sluice-default-p-'));
writeFileSync(join(dir, 'small.csv'), '1,a\n2,b\n');
writeFileSync(join(dir, 'large.csv'), Buffer.alloc(LARGE_JOB_ROWS * 100 + 1, 0x41));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function environment(): TableEnvironment {
  return TableEnvironment.create({ mode: 'streaming', discoverPackages: false });
}

const NEXMARK_COLUMNS = `event_type INT,
  person ROW<id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING, state STRING, dateTime TIMESTAMP(3), extra STRING>,
  auction ROW<id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING>,
  bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP(3), extra STRING>`;

const TABLES = [
  "CREATE TEMPORARY TABLE IF NOT EXISTS small_gen (k INT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1000')",
  "CREATE TEMPORARY TABLE IF NOT EXISTS endless_gen (k INT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000000000')",
  "CREATE TEMPORARY TABLE IF NOT EXISTS paced_gen (k INT, v INT) WITH ('connector' = 'datagen')",
  "CREATE TEMPORARY TABLE IF NOT EXISTS paced_big_gen (k INT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5000000', 'rows-per-second' = '1000')",
  `CREATE TEMPORARY TABLE IF NOT EXISTS big_nexmark (${NEXMARK_COLUMNS}) WITH ('connector' = 'nexmark', 'events.num' = '${LARGE_JOB_ROWS}', 'rate-limited' = 'false')`,
  `CREATE TEMPORARY TABLE IF NOT EXISTS paced_nexmark (${NEXMARK_COLUMNS}) WITH ('connector' = 'nexmark', 'events.num' = '${LARGE_JOB_ROWS}', 'rate-limited' = 'true')`,
  `CREATE TEMPORARY TABLE IF NOT EXISTS small_nexmark (${NEXMARK_COLUMNS}) WITH ('connector' = 'nexmark', 'events.num' = '1000')`,
  `CREATE TEMPORARY TABLE IF NOT EXISTS small_file (k INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'small.csv')}', 'format' = 'csv')`,
  `CREATE TEMPORARY TABLE IF NOT EXISTS large_file (k INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'large.csv')}', 'format' = 'csv')`,
  `CREATE TEMPORARY TABLE IF NOT EXISTS watched_file (k INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv', 'source.monitor-interval' = '1 s')`,
];

async function widest(env: TableEnvironment, sql: string): Promise<number> {
  for (const t of TABLES) await env.executeSql(t);
  const stmt = parseStatement(sql);
  if (stmt.kind !== 'query') throw new Error('not a query');
  const g: JobGraph = (await env.planner.planQuery(stmt.query)).toJobGraph({ push: () => undefined, end: () => undefined });
  return Math.max(...g.vertices.map((v) => v.parallelism));
}

const cores = availableParallelism();

describe('the parallelism of a job when parallelism.default is not set', () => {
  const env = environment();
  afterAll(() => env.close());
  const cases: [string, number][] = [
    ['SELECT k, COUNT(*) FROM small_gen GROUP BY k', 1],
    ['SELECT k, COUNT(*) FROM (VALUES (1), (2)) AS t(k) GROUP BY k', 1],
    ['SELECT k, COUNT(*) FROM endless_gen GROUP BY k', cores],
    ['SELECT * FROM endless_gen LIMIT 5', 1],
    // Paced below what one thread keeps up with, however many rows in all.
    ['SELECT k, COUNT(*) FROM paced_gen GROUP BY k', 1],
    ['SELECT k, COUNT(*) FROM paced_big_gen GROUP BY k', 1],
    ['SELECT bid.auction, COUNT(*) FROM big_nexmark WHERE event_type = 2 GROUP BY bid.auction', cores],
    ['SELECT bid.auction, COUNT(*) FROM paced_nexmark WHERE event_type = 2 GROUP BY bid.auction', 1],
    ['SELECT bid.auction, COUNT(*) FROM small_nexmark WHERE event_type = 2 GROUP BY bid.auction', 1],
    ['SELECT k, COUNT(*) FROM small_file GROUP BY k', 1],
    ['SELECT k, COUNT(*) FROM large_file GROUP BY k', cores],
    // A source that may have fewer splits than subtasks keeps Flink's 1: a reader without one would stall event time.
    ['SELECT k, COUNT(*) FROM watched_file GROUP BY k', 1],
    ['SELECT a.k FROM large_file a JOIN watched_file b ON a.k = b.k', 1],
    // Two small inputs stay small; one large input makes the whole job wide.
    ['SELECT a.k FROM small_gen a JOIN small_file b ON a.k = b.k', 1],
    ['SELECT a.k FROM small_gen a JOIN large_file b ON a.k = b.k', cores],
  ];
  for (const [sql, expected] of cases) {
    it(`${sql} -> ${expected === cores ? 'every core' : expected}`, async () => {
      expect(await widest(env, sql)).toBe(expected);
    });
  }
});

describe('a parallelism the session sets always wins', () => {
  const env = environment();
  env.getConfig().set('parallelism.default', '3');
  afterAll(() => env.close());
  it('for a small job and for a large one', async () => {
    expect(await widest(env, 'SELECT k, COUNT(*) FROM small_gen GROUP BY k')).toBe(3);
    expect(await widest(env, 'SELECT k, COUNT(*) FROM endless_gen GROUP BY k')).toBe(3);
  });
});

describe('defaultParallelism on a one-core machine', () => {
  it('is 1 whatever the input', () => {
    expect(defaultParallelism([], 1)).toBe(1);
  });
});

describe('inputBytesAtLeast', () => {
  it('sums the visible files and stops once the input is large', () => {
    writeFileSync(join(dir, '.hidden'), Buffer.alloc(5000));
    expect(inputBytesAtLeast(join(dir, 'small.csv'), undefined, 1000)).toBe(8);
    expect(inputBytesAtLeast(join(dir, 'missing'), undefined, 1000)).toBe(0);
    expect(inputBytesAtLeast(dir, /small/, 1_000_000)).toBe(8);
    expect(inputBytesAtLeast(dir, undefined, 100)).toBeGreaterThanOrEqual(100);
  });
});
