import { describe, expect, it } from 'vitest';
import { mergeCalcs, optimize } from '../../src/planner/rules/optimize.js';
import { foldConstants } from '../../src/planner/rules/constant-folding.js';
import { call, inputRef, literal } from '../../src/planner/rex/rex-node.js';
import type { PlanNode } from '../../src/planner/logical/plan-node.js';
import { DataTypes } from '../../src/types/data-types.js';
import { notNull } from '../../src/types/logical-type.js';
import { rexToString } from '../../src/planner/rex/rex-to-string.js';

const INT = notNull(DataTypes.INT());
const values: PlanNode = { kind: 'values', rows: [[1, 2]], fields: [{ name: 'a', type: INT }, { name: 'b', type: INT }] };

describe('constant folding', () => {
  it('folds deterministic constant calls', () => {
    const e = call('+', [inputRef(0, 'a', INT), call('*', [literal(2, INT), literal(3, INT)], INT)], INT);
    expect(rexToString(foldConstants(e, 'UTC'))).toBe('+(a, 6)');
  });

  it('leaves non-deterministic calls alone', () => {
    const e = call('NOW', [], DataTypes.TIMESTAMP_LTZ(3), false);
    expect(foldConstants(e, "UTC")).toEqual(e);
    expect(foldConstants(call("+", [e, e], e.type), "UTC").kind).toBe("call");
  });

  it('folds the parents of an IS NULL that folded, however deep (Calcite simplifies the whole chain)', () => {
    const BOOL = notNull(DataTypes.BOOLEAN());
    const isNull = call('IS NULL', [inputRef(0, 'a', INT)], BOOL);
    const chain = call('IS TRUE', [call('IS TRUE', [isNull], BOOL)], BOOL);
    expect(rexToString(foldConstants(chain, 'UTC'))).toBe('FALSE');
    // A parent that still reads a column stays a call, its folded operand a literal.
    const mixed = call('AND', [chain, call('>', [inputRef(1, 'b', INT), literal(1, INT)], BOOL)], BOOL);
    expect(rexToString(foldConstants(mixed, 'UTC'))).toBe('AND(FALSE, >(b, 1))');
  });

  it('drops a condition folded to TRUE', () => {
    const calc: PlanNode = {
      kind: 'calc', input: values, fields: [{ name: 'a', type: INT }],
      projects: [inputRef(0, 'a', INT)], condition: call('>', [literal(2, INT), literal(1, INT)], DataTypes.BOOLEAN()),
    };
    const out = optimize(calc, { timeZone: 'UTC' });
    expect(out.kind === 'calc' && out.condition).toBe(null);
  });
});

describe('calc merging', () => {
  it('inlines the inner projection and ANDs the conditions', () => {
    const inner: PlanNode = {
      kind: 'calc', input: values, fields: [{ name: 'x', type: INT }],
      projects: [call('+', [inputRef(0, 'a', INT), inputRef(1, 'b', INT)], INT)],
      condition: call('>', [inputRef(0, 'a', INT), literal(0, INT)], DataTypes.BOOLEAN()),
    };
    const outer: PlanNode = {
      kind: 'calc', input: inner, fields: [{ name: 'y', type: INT }],
      projects: [call('*', [inputRef(0, 'x', INT), literal(2, INT)], INT)],
      condition: call('<', [inputRef(0, 'x', INT), literal(10, INT)], DataTypes.BOOLEAN()),
    };
    const m = mergeCalcs(outer);
    if (m.kind !== 'calc') throw new Error('expected calc');
    expect(m.input).toBe(values);
    expect(rexToString(m.projects[0]!)).toBe('*(+(a, b), 2)');
    expect(rexToString(m.condition!)).toBe('AND(>(a, 0), <(+(a, b), 10))');
  });

  it('does not merge through a non-deterministic projection', () => {
    const inner: PlanNode = { kind: 'calc', input: values, fields: [{ name: 't', type: INT }], projects: [call('RAND', [], INT, false)], condition: null };
    const outer: PlanNode = { kind: 'calc', input: inner, fields: [{ name: 't', type: INT }], projects: [inputRef(0, 't', INT), inputRef(0, 't', INT)], condition: null };
    expect(mergeCalcs(outer)).toBe(outer);
  });
});
