import { describe, expect, it } from 'vitest';
import { optimize } from '../../src/planner/rules/optimize.js';
import { call, inputRef, literal } from '../../src/planner/rex/rex-node.js';
import type { PlanNode } from '../../src/planner/logical/plan-node.js';
import { rexToString } from '../../src/planner/rex/rex-to-string.js';
import { DataTypes } from '../../src/types/data-types.js';
import { notNull } from '../../src/types/logical-type.js';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { Row } from '../../src/types/row.js';
import { materialize, runQuery, testTable, TestContext } from './harness.js';

const INT = notNull(DataTypes.INT());
const BOOL = DataTypes.BOOLEAN();
const l: PlanNode = { kind: 'values', rows: [[1, 2]], fields: [{ name: 'a', type: INT }, { name: 'b', type: INT }] };
const r: PlanNode = { kind: 'values', rows: [[1, 3]], fields: [{ name: 'c', type: INT }, { name: 'd', type: INT }] };
const fields = [...l.fields, ...r.fields];
const ref = (i: number): ReturnType<typeof inputRef> => inputRef(i, fields[i]!.name, INT);

function filterOver(joinType: 'INNER' | 'LEFT', cond: ReturnType<typeof call>): PlanNode {
  const join: PlanNode = { kind: 'join', joinType, left: l, right: r, leftKeys: [], rightKeys: [], condition: null, fields };
  return { kind: 'calc', input: join, projects: fields.map((_, i) => ref(i)), condition: cond, fields };
}

describe('filter push-down into joins', () => {
  it('turns WHERE a = c of a comma join into equi keys and pushes one-sided conjuncts into the inputs', () => {
    const cond = call('AND', [call('=', [ref(0), ref(2)], BOOL), call('>', [ref(1), literal(1, INT)], BOOL), call('<', [ref(3), ref(1)], BOOL), call('>', [ref(3), literal(0, INT)], BOOL)], BOOL);
    const out = optimize(filterOver('INNER', cond), { timeZone: 'UTC' });
    const join = out.kind === 'join' ? out : out.kind === 'calc' && out.input.kind === 'join' ? out.input : undefined;
    expect(join).toBeDefined();
    expect(join!.leftKeys).toEqual([0]);
    expect(join!.rightKeys).toEqual([0]);
    expect(rexToString(join!.condition!)).toBe('<(d, b)');
    expect(join!.left.kind === 'calc' && rexToString(join!.left.condition!)).toBe('>(b, 1)');
    expect(join!.right.kind === 'calc' && rexToString(join!.right.condition!)).toBe('>(d, 0)');
  });

  it('pushes only the preserved side of a LEFT join', () => {
    const cond = call('AND', [call('>', [ref(1), literal(1, INT)], BOOL), call('>', [ref(3), literal(0, INT)], BOOL)], BOOL);
    const out = optimize(filterOver('LEFT', cond), { timeZone: 'UTC' });
    expect(out.kind).toBe('calc');
    const c = out as PlanNode & { kind: 'calc' };
    expect(rexToString(c.condition!)).toBe('>(d, 0)');
    const join = c.input as PlanNode & { kind: 'join' };
    expect(join.left.kind === 'calc' && rexToString(join.left.condition!)).toBe('>(b, 1)');
    expect(join.right).toBe(r);
  });

  it('gives the same rows for a comma join with WHERE as before', async () => {
    const kv = ResolvedSchema.of([Columns.physical('k', DataTypes.INT()), Columns.physical('v', DataTypes.STRING())]);
    const ctx = new TestContext('streaming')
      .add('a', testTable(kv, [Row.insert(1, 'x'), Row.insert(2, 'y'), Row.insert(null, 'n')]))
      .add('b', testTable(kv, [Row.insert(1, 'p'), Row.insert(2, 'q'), Row.insert(null, 'm')]));
    const res = await runQuery("SELECT a.v, b.v FROM a, b WHERE a.k = b.k AND b.v <> 'q'", ctx);
    expect(materialize(res.rows, res.types)).toEqual(['[x, p]']);
  });
});
