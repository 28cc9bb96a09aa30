// A WHERE between a window TVF and its GROUP BY window_start, window_end keeps the query a window aggregate, as
// Flink plans it: final rows per window, insert-only, and (over input columns) evaluated on the input rows before
// windows are assigned, below the local phase (differential seed 301, query 75: Sluice planned an updating GROUP BY).
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { rowKindShortString } from '../../src/types/row-kind.js';

let env: TableEnvironment | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

// 600 rows, one every 100 ms of event time: 60 s, so 30 two-second windows of 20 rows.
const EVENTS = `CREATE TEMPORARY TABLE ev (id INT, ts AS TO_TIMESTAMP_LTZ(id * 100, 3), WATERMARK FOR ts AS ts) WITH (
  'connector' = 'datagen', 'number-of-rows' = '600', 'rows-per-second' = '100000000',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '599')`;

async function changelog(e: TableEnvironment, sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of (await e.executeSql(sql)).collect()) out.push(`${rowKindShortString(r.kind)} ${r.fields.map(String).join(' ')}`);
  return out;
}

async function session(mode: 'streaming' | 'batch', strategy = 'AUTO'): Promise<TableEnvironment> {
  const e = TableEnvironment.create({ mode, config: { 'table.optimizer.agg-phase-strategy': strategy } });
  await e.executeSql(EVENTS);
  return e;
}

/** Sum of the ids i in [from, to) with `keep(i)`. */
function sum(from: number, to: number, keep: (i: number) => boolean): number {
  let s = 0;
  for (let i = from; i < to; i++) if (keep(i)) s += i;
  return s;
}

const TUMBLE_WHERE = `SELECT window_start, COUNT(*) AS c, SUM(id) AS s FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND))
WHERE MOD(id, 3) = 0 GROUP BY window_start, window_end`;

describe('a WHERE between a window TVF and its aggregate', () => {
  for (const strategy of ['AUTO', 'ONE_PHASE']) {
    it(`over input columns (${strategy}): one final row per window, insert-only, the filter below the aggregate`, async () => {
      env = await session('streaming', strategy);
      const rows = await changelog(env, TUMBLE_WHERE);
      expect(rows.every((r) => r.startsWith('+I'))).toBe(true);
      expect(rows).toHaveLength(30);
      const byStart = new Map(rows.map((r) => [Number(r.split(' ')[1]), r.split(' ').slice(2).join(' ')]));
      for (let w = 0; w < 30; w++) {
        const keep = (i: number): boolean => i % 3 === 0;
        const count = [...Array(20).keys()].filter((k) => keep(w * 20 + k)).length;
        expect(byStart.get(w * 2000), `window ${w}`).toBe(`${count} ${sum(w * 20, w * 20 + 20, keep)}`);
      }
      const plan = String((await changelog(env, `EXPLAIN ${TUMBLE_WHERE}`))[0]);
      if (strategy === 'AUTO') expect(plan).toMatch(/LocalWindowAggregate\(window=\[TUMBLE\(time_col=\[ts\], size=\[2 s\]\)\][^\n]*\n\s*\+- Calc\(select=\[id, ts\], where=\[=\(MOD\(id, 3\), 0\)\]\)/);
      else expect(plan).toMatch(/WindowAggregate\(/);
      expect(plan).not.toMatch(/GroupAggregate/);
    });
  }

  it('reading window_start: still a window aggregate, with the rows batch mode gives', async () => {
    const sql = `SELECT window_start, COUNT(*) AS c, SUM(id) AS s FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND))
WHERE MOD(id, 2) = 0 OR window_start >= TIMESTAMP WITH LOCAL TIME ZONE '1970-01-01 00:00:30' GROUP BY window_start, window_end`;
    env = await session('streaming');
    const streaming = await changelog(env, sql);
    expect(streaming.every((r) => r.startsWith('+I'))).toBe(true);
    const batch = await session('batch');
    try {
      expect([...streaming].sort()).toEqual([...(await changelog(batch, sql))].sort());
    } finally {
      await batch.close();
    }
    // Windows starting before 30 s keep their even ids, later ones every id: the condition reads the window, not the row.
    expect(streaming).toContain(`+I 29000 15 ${sum(290, 320, (i) => i % 2 === 0)}`);
    expect(streaming).toContain(`+I 30000 30 ${sum(300, 330, () => true)}`);
  });
});
