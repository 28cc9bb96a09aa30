// DISTINCT is applied by the aggregate operators, for every built-in aggregate alike: a streaming GROUP BY over an
// updating input (a retracting inner GROUP BY) keeps each distinct value once and drops it only when its last row
// is retracted; the batch answer is the same.
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { isAccumulate } from '../../src/types/row-kind.js';

let env: TableEnvironment | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

// Per k: v values with repeats; the inner query's LAST_VALUE per id retracts v's earlier value when an id repeats.
const INPUT = `CREATE TEMPORARY VIEW src AS SELECT * FROM (VALUES
  (1, 'a', 10), (2, 'a', 10), (3, 'a', 20), (1, 'a', 30), (4, 'b', 5), (5, 'b', 5), (4, 'b', 7), (6, 'b', 9)) AS T(id, k, v)`;
const QUERY = `SELECT k, COUNT(DISTINCT v) AS c, SUM(DISTINCT v) AS s, ARRAY_AGG(DISTINCT v) AS a, CARDINALITY(COLLECT(DISTINCT v)) AS m,
  VAR_POP(DISTINCT CAST(v AS DOUBLE)) AS vp FROM (SELECT id, k, LAST_VALUE(v) AS v FROM src GROUP BY id, k) GROUP BY k`;

async function table(mode: 'streaming' | 'batch'): Promise<Map<string, unknown[]>> {
  env = TableEnvironment.create({ mode, config: { 'parallelism.default': '1' } });
  await env.executeSql(INPUT);
  const rows = new Map<string, unknown[]>();
  for await (const r of (await env.executeSql(QUERY)).collect()) {
    const k = String(r.fields[0]);
    if (isAccumulate(r.kind)) rows.set(k, r.fields.slice(1));
    else rows.delete(k);
  }
  return rows;
}

describe('DISTINCT aggregates over an updating input', () => {
  // Final values per id: a -> ids 1 (30), 2 (10), 3 (20): {10, 20, 30}; b -> 4 (7), 5 (5), 6 (9): {5, 7, 9}.
  const expected = new Map<string, unknown[]>([
    ['a', [3n, 60, [10, 20, 30], 3, 200 / 3]],
    ['b', [3n, 21, [5, 7, 9], 3, 8 / 3]],
  ]);
  for (const mode of ['streaming', 'batch'] as const) {
    it(`counts, sums and collects each distinct value once (${mode})`, async () => {
      const t = await table(mode);
      expect([...t.keys()].sort()).toEqual(['a', 'b']);
      for (const [k, [c, s, a, m, vp]] of expected) {
        const got = t.get(k)!;
        expect(got[0]).toBe(c);
        expect(got[1]).toBe(s);
        expect([...(got[2] as number[])].sort((x, y) => x - y)).toEqual(a);
        expect(got[3]).toBe(m);
        expect(got[4] as number).toBeCloseTo(vp as number, 9);
      }
    });
  }
});
