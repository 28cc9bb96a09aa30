import { describe, expect, it } from 'vitest';
import { neverTrue } from '../../../src/planner/rules/empty-input.js';
import { call, inputRef, literal } from '../../../src/planner/rex/rex-node.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { TableEnvironment } from '../../../src/api/table-environment.js';

const B = DataTypes.BOOLEAN();
const x = inputRef(0, 'x', B);

describe('a condition that can never be TRUE', () => {
  it('is FALSE, NULL, an AND with one, an OR of them, or a CASE whose every result is one', () => {
    expect(neverTrue(literal(false, B))).toBe(true);
    expect(neverTrue(literal(null, B))).toBe(true);
    expect(neverTrue(literal(true, B))).toBe(false);
    expect(neverTrue(x)).toBe(false);
    expect(neverTrue(call('AND', [x, literal(false, B)], B))).toBe(true);
    expect(neverTrue(call('OR', [x, literal(false, B)], B))).toBe(false);
    expect(neverTrue(call('OR', [literal(null, B), literal(false, B)], B))).toBe(true);
    // CASE WHEN x IS NULL THEN NULL ELSE FALSE END: what `x > x` simplifies to.
    expect(neverTrue(call('CASE', [call('IS NULL', [x], B), literal(null, B), literal(false, B)], B))).toBe(true);
    expect(neverTrue(call('CASE', [x, literal(true, B), literal(false, B)], B))).toBe(false);
  });
});

describe('a global aggregate over provably no rows', () => {
  for (const mode of ['streaming', 'batch'] as const) {
    it(`answers its one row while planning, as Flink (${mode})`, async () => {
      const env = TableEnvironment.create({ mode });
      try {
        await env.executeSql('CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES (1, 2.5E0), (2, CAST(NULL AS DOUBLE))) AS T(id, x)');
        const rows = async (sql: string): Promise<unknown[][]> => {
          const out: unknown[][] = [];
          for await (const r of (await env.executeSql(sql)).collect()) out.push(r.fields);
          return out;
        };
        expect(await rows('SELECT COUNT(*), SUM(id), COUNT(x), MAX(x) FROM t WHERE x > x')).toEqual([[0n, null, 0n, null]]);
        expect(await rows('SELECT COUNT(*) FROM t WHERE FALSE')).toEqual([[0n]]);
        // Rows that exist are aggregated as ever; a grouped aggregate of no rows has no rows.
        expect(await rows('SELECT COUNT(*), SUM(id) FROM t WHERE id > 1')).toEqual([[1n, 2]]);
        expect(await rows('SELECT id, COUNT(*) FROM t WHERE x > x GROUP BY id')).toEqual([]);
      } finally {
        await env.close();
      }
    });
  }
});
