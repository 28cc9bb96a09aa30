// The lowering pins exactly the vertices whose operators call a function that must stay on the main thread
// (registered in code without a module), whatever kind of function: scalar, aggregate, table.
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { parseStatement } from '../../../src/sql/parse.js';

async function env(): Promise<TableEnvironment> {
  const e = TableEnvironment.create({ mode: 'streaming', config: { 'parallelism.default': '2' } });
  await e.executeSql(`CREATE TEMPORARY TABLE t (id BIGINT, s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '10')`);
  e.createTemporarySystemFunction('total', {
    createAccumulator: () => ({ n: 0n }),
    accumulate: (acc: { n: bigint }, x: bigint) => void (acc.n += x),
    getValue: (acc: { n: bigint }) => acc.n,
    resultType: 'BIGINT',
  });
  e.createTemporarySystemFunction('words', { kind: 'table', eval: function* (s: string) { yield* s.split(' '); }, resultType: 'STRING' });
  return e;
}

/** The pinned vertices of `query`'s job graph: [parallelism, reason]. */
async function pins(e: TableEnvironment, query: string): Promise<[number, string][]> {
  const stmt = parseStatement(query);
  if (stmt.kind !== 'query') throw new Error('a query');
  const graph = (await e.planner.planQuery(stmt.query)).toJobGraph({ push: () => undefined, end: () => undefined }, 'q');
  return graph.vertices.filter((v) => v.mainThread !== undefined && v.kind !== 'sink').map((v) => [v.parallelism, v.mainThread!]);
}

describe('vertices pinned to the main thread', () => {
  it('pins the aggregate vertex of a user-defined aggregate, not its input', async () => {
    const e = await env();
    const got = await pins(e, 'SELECT id % 3 AS k, total(id) AS t FROM t GROUP BY id % 3');
    expect(got).toHaveLength(1);
    expect(got[0]![0]).toBe(2);
    expect(got[0]![1]).toMatch(/^GroupAggregate\(.*TOTAL\(id\).* \(function 'total' is registered in code without a module\)$/);
  });

  it('pins the vertex a table function is chained onto', async () => {
    const e = await env();
    const got = await pins(e, 'SELECT id, w FROM t, LATERAL TABLE(words(s)) AS u(w)');
    expect(got.map(([p, r]) => [p, r.replace(/^.*\((function .*)\)$/, '$1')])).toEqual([[2, "function 'words' is registered in code without a module"]]);
  });

  it('pins nothing in a job calling only built-in functions', async () => {
    const e = await env();
    expect(await pins(e, 'SELECT id % 3 AS k, SUM(id), UPPER(MAX(s)) FROM t GROUP BY id % 3')).toEqual([]);
  });
});
