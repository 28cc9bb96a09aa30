import { describe, expect, it } from 'vitest';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { notNull } from '../../../src/types/logical-type.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';
import type { LocalRefExpr } from '../../../src/planner/expressions/bound-expr.js';
import { compileCalc, compileExpression, compilePredicate, compileProjection } from '../../../src/planner/expressions/compile.js';
import { bindCall, cast, inputRef, isDeterministic, literal } from '../../../src/planner/expressions/expr-factory.js';
import { createBuiltinRegistry } from '../../../src/planner/functions/builtin-registry.js';
import type { ScalarFunctionDefinition } from '../../../src/planner/functions/function-definition.js';

const registry = createBuiltinRegistry();
const fn = (n: string): ScalarFunctionDefinition => registry.lookup(n) as ScalarFunctionDefinition;
const amount = inputRef(1, T.INT(), 'amount');
const name = inputRef(0, T.STRING(), 'name');

describe('compilation', () => {
  it('compileProjection evaluates every expression per row', () => {
    const project = compileProjection([bindCall(fn('+'), [amount, literal(1, T.INT())]), bindCall(fn('UPPER'), [name])]);
    expect(project(Row.insert('a', 41))).toEqual([42, 'A']);
    expect(project(Row.insert(null, null))).toEqual([null, null]);
  });
  it('compilePredicate treats NULL as not true', () => {
    const p = compilePredicate(bindCall(fn('>'), [amount, literal(10, T.INT())]));
    expect(p(Row.insert('a', 11))).toBe(true);
    expect(p(Row.insert('a', 10))).toBe(false);
    expect(p(Row.insert('a', null))).toBe(false);
  });
  it('compiles against a plain fields array when asked', () => {
    const e = compileExpression(bindCall(fn('*'), [amount, literal(2, T.INT())]), { input: 'fields' }) as unknown as (f: unknown[]) => unknown;
    expect(e(['x', 21])).toBe(42);
  });
  it('compileCalc filters and projects whole batches, keeping the RowKind', () => {
    const calc = compileCalc([name, bindCall(fn('*'), [amount, literal(2, T.INT())])], bindCall(fn('>'), [amount, literal(10, T.INT())]));
    const out: Row[] = [];
    calc([Row.insert('a', 5), new Row(RowKind.UPDATE_AFTER, ['b', 20]), Row.insert('c', null)], out);
    expect(out).toHaveLength(1);
    expect(out[0]!.kind).toBe(RowKind.UPDATE_AFTER);
    expect(out[0]!.fields).toEqual(['b', 40]);
    const all: Row[] = [];
    compileCalc([amount], null)([Row.insert('a', 1), Row.insert('b', null)], all);
    expect(all.map((r) => r.fields)).toEqual([[1], [null]]);
  });
  it('local refs are computed once per row and reused', () => {
    let calls = 0;
    const udf: ScalarFunctionDefinition = {
      kind: 'scalar',
      name: 'COUNTED',
      deterministic: true,
      inferType: () => T.INT(),
      codegen: { kind: 'runtime-strict', fn: ((x: number) => { calls++; return x * 10; }) as (...a: never[]) => unknown },
    };
    const local = bindCall(udf, [amount]);
    const ref: LocalRefExpr = { kind: 'local-ref', index: 0, type: local.type };
    const project = compileProjection([ref, bindCall(fn('+'), [ref, literal(1, T.INT())])], { locals: [local] });
    expect(project(Row.insert('a', 2))).toEqual([20, 21]);
    expect(calls).toBe(1);
  });
  it('skips null checks for NOT NULL operands and still gets the right answer', () => {
    const x = inputRef(0, notNull(T.BIGINT()));
    const e = compileExpression(bindCall(fn('+'), [x, literal(1n, T.BIGINT())]));
    expect(e(Row.insert(9007199254740992n))).toBe(9007199254740993n);
  });
  it('generated functions are reusable across many rows without leaking state between rows', () => {
    const e = compileExpression(bindCall(fn('COALESCE'), [inputRef(0, T.INT()), inputRef(1, T.INT())]));
    expect(e(Row.insert(1, 2))).toBe(1);
    expect(e(Row.insert(null, null))).toBe(null);
    expect(e(Row.insert(null, 3))).toBe(3);
  });
  it('marks non-deterministic expressions', () => {
    expect(isDeterministic(bindCall(fn('+'), [amount, literal(1, T.INT())]))).toBe(true);
    expect(isDeterministic(bindCall(fn('+'), [bindCall(fn('RAND_INTEGER'), [literal(10, T.INT())]), literal(1, T.INT())]))).toBe(false);
  });
});

describe('literal casts folded at compile time', () => {
  it('converts a coerced literal once and keeps division checks only where the divisor may be zero', () => {
    const big = inputRef(0, T.BIGINT());
    const half = bindCall(fn('/'), [big, literal(2, T.INT())]);
    expect(half.operands[1]!.kind).toBe('cast');
    const e = compileExpression(half, { input: 'fields' }) as unknown as (f: unknown[]) => unknown;
    expect(e([7n])).toBe(3n);
    expect(e([null])).toBeNull();
    const byZero = compileExpression(bindCall(fn('/'), [big, literal(0, T.INT())]), { input: 'fields' }) as unknown as (f: unknown[]) => unknown;
    expect(() => byZero([7n])).toThrow('Division by zero');
    const small = compileExpression(bindCall(fn('/'), [amount, literal(-2, T.INT())]), { input: 'fields' }) as unknown as (f: unknown[]) => unknown;
    expect(small(['x', 7])).toBe(-3);
  });
  it('leaves a failing literal cast to fail when a row is evaluated', () => {
    const bad = cast(literal('abc', T.STRING()), T.INT());
    const e = compileExpression(bad, { input: 'fields' }) as unknown as (f: unknown[]) => unknown;
    expect(() => e([])).toThrow(/Cannot cast/);
    const ok = compileExpression(cast(literal('12', T.STRING()), T.BIGINT()), { input: 'fields' }) as unknown as (f: unknown[]) => unknown;
    expect(ok([])).toBe(12n);
  });
});

describe('compileCalc with a conjunctive condition', () => {
  it('keeps a row only when every conjunct is TRUE (NULL or FALSE drops it)', () => {
    const gt = bindCall(fn('>'), [amount, literal(10, T.INT())]);
    const notA = bindCall(fn('<>'), [name, literal('a', T.STRING())]);
    const calc = compileCalc([name], bindCall(fn('AND'), [gt, bindCall(fn('AND'), [notA, bindCall(fn('IS NOT NULL'), [name])])]));
    const out: Row[] = [];
    calc([Row.insert('b', 11), Row.insert('a', 11), Row.insert(null, 11), Row.insert('c', null), Row.insert('d', 5), Row.insert('e', 12)], out);
    expect(out.map((r) => r.fields[0])).toEqual(['b', 'e']);
  });
});
