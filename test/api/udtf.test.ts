import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { tableFunction } from '../../src/planner/functions/udf.js';
import { DataTypes, FIELD } from '../../src/types/data-types.js';
import { RowKind } from '../../src/types/row-kind.js';
import type { Row } from '../../src/types/row.js';

let env: TableEnvironment;
afterEach(async () => {
  await env?.close();
});

async function rows(sql: string): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r);
  return out;
}

async function fields(sql: string): Promise<unknown[][]> {
  return (await rows(sql)).map((r) => r.fields);
}

/** split(s, sep): one row (word, length) per non-empty part. */
function registerSplit(e: TableEnvironment): void {
  e.createTemporarySystemFunction('split', {
    kind: 'table',
    eval: function* (s: string | null, sep: string) {
      if (s === null) return;
      for (const w of s.split(sep)) if (w !== '') yield [w, w.length];
    },
    resultType: DataTypes.ROW(FIELD('word', DataTypes.STRING()), FIELD('len', DataTypes.INT())),
    argumentTypes: [DataTypes.STRING(), DataTypes.STRING()],
  });
}

const INPUT = "(VALUES (1, 'a b'), (2, ''), (3, 'ccc')) AS t(id, s)";

describe('table functions (LATERAL TABLE)', () => {
  for (const mode of ['batch', 'streaming'] as const) {
    it(`CROSS JOIN LATERAL TABLE drops input rows without output rows [${mode}]`, async () => {
      env = TableEnvironment.create({ mode });
      registerSplit(env);
      expect(await fields(`SELECT id, w, n FROM ${INPUT} CROSS JOIN LATERAL TABLE(split(s, ' ')) AS u(w, n)`)).toEqual([
        [1, 'a', 1],
        [1, 'b', 1],
        [3, 'ccc', 3],
      ]);
      // The comma form and JOIN ... ON TRUE are the same inner correlate.
      expect(await fields(`SELECT id, w FROM ${INPUT}, LATERAL TABLE(split(s, ' ')) AS u(w, n)`)).toEqual([
        [1, 'a'],
        [1, 'b'],
        [3, 'ccc'],
      ]);
      expect(await fields(`SELECT id, w FROM ${INPUT} JOIN LATERAL TABLE(split(s, ' ')) AS u(w, n) ON TRUE`)).toEqual([
        [1, 'a'],
        [1, 'b'],
        [3, 'ccc'],
      ]);
    });

    it(`LEFT JOIN LATERAL TABLE ON TRUE keeps input rows without output rows with NULLs [${mode}]`, async () => {
      env = TableEnvironment.create({ mode });
      registerSplit(env);
      expect(await fields(`SELECT id, w, n FROM ${INPUT} LEFT JOIN LATERAL TABLE(split(s, ' ')) AS u(w, n) ON TRUE`)).toEqual([
        [1, 'a', 1],
        [1, 'b', 1],
        [2, null, null],
        [3, 'ccc', 3],
      ]);
    });
  }

  it('names the columns by the result ROW fields without aliases, and by t(a, b) with them', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    registerSplit(env);
    const r1 = await env.executeSql("SELECT * FROM (VALUES ('x y')) AS t(s), LATERAL TABLE(split(s, ' '))");
    expect(r1.getResolvedSchema().columnNames()).toEqual(['s', 'word', 'len']);
    const r2 = await env.executeSql("SELECT u.a, u.b FROM (VALUES ('x y')) AS t(s), LATERAL TABLE(split(s, ' ')) u(a, b) WHERE u.b = 1");
    expect(r2.getResolvedSchema().columnNames()).toEqual(['a', 'b']);
    const out: unknown[][] = [];
    for await (const r of r2.collect()) out.push(r.fields);
    expect(out).toEqual([
      ['x', 1],
      ['y', 1],
    ]);
  });

  it('filters the produced rows with the ON condition of an inner join', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    registerSplit(env);
    expect(await fields(`SELECT id, w FROM ${INPUT} JOIN LATERAL TABLE(split(s, ' ')) AS u(w, n) ON u.w <> 'a'`)).toEqual([
      [1, 'b'],
      [3, 'ccc'],
    ]);
  });

  it('passes retractions through: a -U input row emits -U rows', async () => {
    env = TableEnvironment.create({ mode: 'streaming' });
    env.createTemporarySystemFunction(
      'upto',
      tableFunction({
        eval: function* (n: bigint) {
          for (let i = 1n; i <= n; i++) yield i;
        },
        resultType: DataTypes.BIGINT(),
      }),
    );
    const r = await rows("SELECT k, c, f0 FROM (SELECT k, COUNT(*) AS c FROM (VALUES ('a'), ('a')) AS v(k) GROUP BY k) AS g, LATERAL TABLE(upto(c))");
    expect(r.map((x) => [x.kind, ...x.fields])).toEqual([
      [RowKind.INSERT, 'a', 1n, 1n],
      [RowKind.UPDATE_BEFORE, 'a', 1n, 1n],
      [RowKind.UPDATE_AFTER, 'a', 2n, 1n],
      [RowKind.UPDATE_AFTER, 'a', 2n, 2n],
    ]);
  });

  it('casts arguments to the declared types', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    env.createTemporarySystemFunction('rep', {
      kind: 'table',
      eval: function* (n: bigint) {
        yield [typeof n];
      },
      resultType: DataTypes.ROW(FIELD('t', DataTypes.STRING())),
      argumentTypes: [DataTypes.BIGINT()],
    });
    expect(await fields('SELECT t FROM (VALUES (1)) AS v(i), LATERAL TABLE(rep(i))')).toEqual([['bigint']]);
  });

  it('rejects what it cannot plan with messages that say what to do', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    registerSplit(env);
    env.createTemporarySystemFunction('bad', {
      kind: 'table',
      eval: function* () {
        yield [1];
      },
      resultType: DataTypes.ROW(FIELD('a', DataTypes.INT()), FIELD('b', DataTypes.INT())),
    });
    await expect(env.executeSql(`SELECT * FROM ${INPUT}, LATERAL TABLE(nope(s))`)).rejects.toThrow(
      "LATERAL TABLE(nope(...)) requires a table function, but no function of that name is registered",
    );
    await expect(env.executeSql(`SELECT * FROM ${INPUT}, LATERAL TABLE(upper(s))`)).rejects.toThrow('it is a scalar function');
    await expect(env.executeSql(`SELECT * FROM ${INPUT}, LATERAL TABLE(split(s, ' ')) AS u(a)`)).rejects.toThrow(
      'List of column aliases must have same degree as table; table has 2 columns (word, len), whereas alias list has 1 columns',
    );
    await expect(env.executeSql(`SELECT * FROM ${INPUT} LEFT JOIN LATERAL TABLE(split(s, ' ')) AS u(w, n) ON u.n > 1`)).rejects.toThrow(
      'LEFT JOIN LATERAL TABLE supports only ON TRUE',
    );
    await expect(env.executeSql("SELECT * FROM LATERAL TABLE(split('a', ' '))")).rejects.toThrow('must follow a table it reads from');
    await expect(rows(`SELECT * FROM ${INPUT}, LATERAL TABLE(bad())`)).rejects.toThrow("Table function 'BAD' yielded [1]; each row must be an array of 2 field values (a, b).");
  });
});
