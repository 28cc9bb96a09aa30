import { describe, expect, it } from 'vitest';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import { assignWindows } from '../../src/table-runtime/window-assigner-operator.js';
import type { WindowAssignment } from '../../src/table-runtime/window-assigner-operator.js';
import { WindowAggregateOperator } from '../../src/table-runtime/window-aggregate-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { OperatorHarness } from './fake-context.js';

type Assigning = Exclude<WindowAssignment, { kind: 'SESSION' }>;

/** Per (key, start, end): COUNT(*) and SUM(v), as the operator fusing the TVF emits them. */
async function fused(window: Assigning, rows: [string, number, number][]): Promise<string[]> {
  const specs = [
    { fn: builtinAggregate('COUNT', [], DataTypes.BIGINT()), args: [], distinct: false, filterArg: -1, countStar: true },
    { fn: builtinAggregate('SUM', [DataTypes.BIGINT()], DataTypes.BIGINT()), args: [1], distinct: false, filterArg: -1 },
  ];
  const op = new WindowAggregateOperator(
    { input: { kind: 'assign', timeIndex: 2, window }, keys: [{ kind: 'field', index: 0 }, { kind: 'start' }, { kind: 'end' }], output: null },
    specs,
  );
  const h = await new OperatorHarness(op).open();
  h.push(rows.map(([k, v, t]) => Row.insert(k, BigInt(v), t)));
  await h.finish();
  return h.out.map((r) => r.fields.map(String).join(' ')).sort();
}

/** The same through assignWindows, the TVF's own assignment, row by row. */
function expected(window: Assigning, rows: [string, number, number][]): string[] {
  const groups = new Map<string, [number, bigint]>();
  for (const [k, v, t] of rows) {
    for (const [s, e] of assignWindows(t, window)) {
      const g = groups.get(`${k} ${s} ${e}`) ?? [0, 0n];
      groups.set(`${k} ${s} ${e}`, [g[0] + 1, g[1] + BigInt(v)]);
    }
  }
  return [...groups].map(([k, [c, s]]) => `${k} ${c} ${s}`).sort();
}

describe('window aggregate fused with its TVF', () => {
  const rows: [string, number, number][] = [];
  for (let i = 0; i < 200; i++) rows.push([`k${i % 3}`, i, i * 7 + (i % 5)]);

  const windows: [string, Assigning][] = [
    ['TUMBLE', { kind: 'TUMBLE', size: 50, offset: 0 }],
    ['HOP, size a multiple of slide', { kind: 'HOP', size: 50, slide: 10, offset: 0 }],
    ['HOP, size not a multiple of slide', { kind: 'HOP', size: 25, slide: 10, offset: 0 }],
    ['HOP, size below slide (gaps)', { kind: 'HOP', size: 5, slide: 20, offset: 0 }],
    ['HOP with an offset', { kind: 'HOP', size: 30, slide: 10, offset: 3 }],
    ['CUMULATE', { kind: 'CUMULATE', size: 60, step: 20, offset: 0 }],
  ];
  for (const [name, w] of windows) {
    it(`assigns every row to the windows the TVF lists: ${name}`, async () => {
      expect(await fused(w, rows)).toEqual(expected(w, rows));
    });
  }
});
