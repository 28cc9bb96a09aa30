import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

// Flink's generated code takes the NULL-ness of arithmetic, comparisons, NOT and a CAST to a string from their
// operands alone, so a DECIMAL product that overflows to NULL still IS NOT NULL there (src/planner/rules/
// reflexive-comparison.ts says which operators Sluice reads so). Expected rows: what a real Flink 2.3.0 answered (issue #13,
// streaming seed 2027 query 1812).
let env: TableEnvironment;

beforeAll(async () => {
  env = TableEnvironment.create({ mode: 'batch', discoverPackages: false });
  await env.executeSql(
    "CREATE TEMPORARY VIEW td AS SELECT * FROM (VALUES (1, CAST('99999999999999999999.999999999999999999' AS DECIMAL(38, 18)), 'x'), (2, CAST(NULL AS DECIMAL(38, 18)), '5'), (3, CAST('1.5' AS DECIMAL(38, 18)), CAST(NULL AS STRING))) AS v(id, dl, s)",
  );
});

afterAll(async () => {
  await env.close();
});

async function rows(sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push([...r.fields]);
  return out.sort((a, b) => (a[0] as number) - (b[0] as number));
}

describe('IS [NOT] NULL of an operator NULL exactly when an operand is', () => {
  it('reads the operands: an overflowing DECIMAL product IS NOT NULL, through a CAST too; MOD (a function of its own) is evaluated', async () => {
    expect(await rows('SELECT id, dl * dl IS NOT NULL, CAST(dl * dl AS STRING) IS NULL, (dl * dl) IS NULL, MOD(id, 0 + id) IS NOT NULL FROM td')).toEqual([
      [1, true, false, false, true],
      [2, false, true, true, true],
      [3, true, false, false, true],
    ]);
  });

  it('in a filter too', async () => {
    expect(await rows('SELECT id FROM td WHERE dl * dl IS NOT NULL')).toEqual([[1], [3]]);
  });

  it('a CAST that can fail is still evaluated: CAST(NaN AS DECIMAL) IS NULL fails, as in Flink (seed 2027, query 5849)', async () => {
    await env.executeSql("CREATE TEMPORARY VIEW tn AS SELECT * FROM (VALUES (1, CAST('NaN' AS DOUBLE)), (2, CAST(NULL AS DOUBLE))) AS v(id, y)");
    await expect(rows('SELECT id FROM tn WHERE CAST(y AS DECIMAL(12, 3)) IS NULL')).rejects.toThrow(/NaN/);
  });

  it('while the product itself is still NULL when it overflows', async () => {
    expect(await rows('SELECT id, dl * dl FROM td WHERE id = 1')).toEqual([[1, null]]);
  });
});
