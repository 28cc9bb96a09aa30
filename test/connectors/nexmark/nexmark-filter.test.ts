import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { nexmarkDdl } from '../../../src/connectors/nexmark/nexmark-ddl.js';
import { parseScript } from '../../../src/sql/parse.js';

let env: TableEnvironment | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function setUp(parallelism: number): Promise<void> {
  env = TableEnvironment.create({ mode: 'batch', config: { 'parallelism.default': String(parallelism) } });
  const ddl = nexmarkDdl(10_000, 6_000).replace("'events.num'", "'base-time' = '1700000000000', 'seed' = '3', 'events.num'");
  for (const s of parseScript(ddl)) await env.executeStatement(s.statement);
}

async function rows(sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of (await env!.executeSql(sql)).collect()) out.push(JSON.stringify(r.fields, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
  return out.sort();
}

async function optimizedPlan(sql: string): Promise<string> {
  const lines: string[] = [];
  for await (const r of (await env!.executeSql(`EXPLAIN ${sql}`)).collect()) lines.push(String(r.fields[0]));
  return lines.join('\n').split('== Optimized Execution Plan ==')[0]!.split('== Optimized Physical Plan ==')[1]!;
}

// `event_type + 0 = 2` is the same condition in a shape the source does not accept: the planner filters.
const Q1 = 'SELECT auction, bidder, 0.908 * price AS price, dateTime, extra FROM bid';
const Q1_UNPUSHED = `SELECT bid.auction, bid.bidder, 0.908 * bid.price AS price, dateTime, bid.extra FROM datagen WHERE event_type + 0 = 2`;

describe('nexmark event_type filter push-down', () => {
  it('q1 over the bid view: the generator emits only bids, the Calc loses its filter, rows are identical', async () => {
    await setUp(2);
    const plan = await optimizedPlan(Q1);
    // dateTime (computed, CASE over every event kind) needs all columns, so nothing is projected away.
    expect(plan).toContain('watermarkEmitStrategy=[on-periodic], filter=[=(event_type, 2)]]]');
    expect(plan).not.toMatch(/where=/);
    const pushed = await rows(Q1);
    const unpushed = await rows(Q1_UNPUSHED);
    expect(await optimizedPlan(Q1_UNPUSHED)).toMatch(/where=/);
    expect(pushed.length).toBeGreaterThan(5_000);
    expect(pushed).toEqual(unpushed);
  });

  it('accepts IN lists and keeps other conjuncts for the planner', async () => {
    await setUp(1);
    const sql = 'SELECT event_type, COUNT(*) AS c FROM datagen WHERE event_type IN (0, 1) AND event_type < 5 GROUP BY event_type';
    const plan = await optimizedPlan(sql);
    expect(plan).toMatch(/filter=\[in\(event_type, 0, 1\)|filter=\[IN\(event_type, 0, 1\)/);
    expect(plan).toContain('<(event_type, 5)');
    const all = await rows('SELECT event_type, COUNT(*) AS c FROM datagen WHERE event_type + 0 IN (0, 1) GROUP BY event_type');
    expect(await rows(sql)).toEqual(all);
    expect(all).toEqual(['[0,"120n"]', '[1,"360n"]']);
  });

  it('two event_type conjuncts intersect', async () => {
    await setUp(1);
    expect(await rows('SELECT COUNT(*) FROM datagen WHERE event_type IN (0, 2) AND event_type = 0')).toEqual(['["120n"]']);
  });
});
