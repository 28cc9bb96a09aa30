import { describe, expect, it } from 'vitest';
import { ExecutionError } from '../../../src/errors/sluice-error.js';
import { createBuiltinRegistry } from '../../../src/planner/functions/builtin-registry.js';
import type { ScalarFunctionDefinition } from '../../../src/planner/functions/function-definition.js';
import { compileRex, compileRexCalc } from '../../../src/planner/rex/compile-rex.js';
import { call, inputRef, literal } from '../../../src/planner/rex/rex-node.js';
import type { RexNode } from '../../../src/planner/rex/rex-node.js';
import { sameRepresentation } from '../../../src/planner/rex/rex-to-bound.js';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import { notNull } from '../../../src/types/logical-type.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';

const BOOL = T.BOOLEAN();
const i = inputRef(0, 'i', T.INT());
const b = inputRef(1, 'b', T.BIGINT());
const s = inputRef(2, 's', T.STRING());
const d = inputRef(3, 'd', T.DECIMAL(10, 2));
const eval1 = (n: RexNode, fields: unknown[]): unknown => compileRex(n)(fields);

describe('compileRex (through the code generator)', () => {
  it('reads fields and constants', () => {
    expect(eval1(i, [7])).toBe(7);
    expect(eval1(literal(5n, notNull(T.BIGINT())), [])).toBe(5n);
    expect(eval1(literal(null, T.NULL()), [])).toBeNull();
  });

  it('mixes INT and BIGINT operands as the Rex type says (implicit casts are inserted)', () => {
    expect(eval1(call('+', [i, b], T.BIGINT()), [2, 40n])).toBe(42n);
    expect(eval1(call('=', [i, b], BOOL), [3, 3n])).toBe(true);
    expect(eval1(call('<', [b, literal(10, notNull(T.INT()))], BOOL), [0, 11n])).toBe(false);
    expect(eval1(call('+', [i, b], T.BIGINT()), [null, 40n])).toBeNull();
  });

  it('wraps integer overflow as Java and raises on division by zero', () => {
    expect(eval1(call('+', [i, literal(1, notNull(T.INT()))], T.INT()), [2147483647])).toBe(-2147483648);
    expect(() => eval1(call('/', [i, literal(0, notNull(T.INT()))], T.INT()), [1])).toThrow(ExecutionError);
    expect(eval1(call('/', [i, literal(2, notNull(T.INT()))], T.INT()), [-7])).toBe(-3);
  });

  it('computes DECIMAL arithmetic at the result scale', () => {
    const r = eval1(call('*', [d, literal(Decimal.parse('1.5'), notNull(T.DECIMAL(2, 1)))], T.DECIMAL(13, 3)), [0, 0n, '', Decimal.parse('2.25')]);
    expect(r).toBeInstanceOf(Decimal);
    expect(String(r)).toBe('3.375');
  });

  it('casts a call to the Rex type when the generator would produce another representation', () => {
    expect(sameRepresentation(T.INT(), T.BIGINT())).toBe(false);
    expect(sameRepresentation(T.CHAR(3), T.STRING())).toBe(true);
    expect(sameRepresentation(T.DECIMAL(10, 2), T.DECIMAL(10, 3))).toBe(false);
    // INT + INT typed BIGINT by a rule: the value must be a bigint.
    expect(eval1(call('+', [i, i], T.BIGINT()), [20, 0n])).toBe(40n);
  });

  it('uses three-valued AND / OR and SQL IS tests', () => {
    const p = inputRef(0, 'p', BOOL);
    const q = inputRef(1, 'q', BOOL);
    expect(eval1(call('AND', [p, q], BOOL), [null, false])).toBe(false);
    expect(eval1(call('AND', [p, q], BOOL), [null, true])).toBeNull();
    expect(eval1(call('OR', [p, q], BOOL), [null, true])).toBe(true);
    expect(eval1(call('IS NOT TRUE', [p], notNull(BOOL)), [null])).toBe(true);
    expect(eval1(call('IS DISTINCT FROM', [i, b], notNull(BOOL)), [null, null])).toBe(false);
  });

  it('CASE picks the first TRUE branch, CAST and TRY_CAST convert text', () => {
    const c = call('CASE', [call('>', [i, literal(0, notNull(T.INT()))], BOOL), literal('pos', notNull(T.CHAR(3))), literal('other', notNull(T.CHAR(5)))], T.VARCHAR(5));
    expect(eval1(c, [1])).toBe('pos');
    expect(eval1(c, [null])).toBe('other');
    expect(eval1(call('CAST', [s], T.INT()), [0, 0n, ' 42 '])).toBe(42);
    expect(() => eval1(call('CAST', [s], T.INT()), [0, 0n, 'x'])).toThrow(ExecutionError);
    expect(eval1(call('TRY_CAST', [s], T.INT()), [0, 0n, 'x'])).toBeNull();
  });

  it('IN with a NULL item, LIKE, COALESCE, field and item access', () => {
    const inList = call('IN', [i, literal(1, notNull(T.INT())), literal(null, T.NULL())], BOOL);
    expect(eval1(inList, [1])).toBe(true);
    expect(eval1(inList, [2])).toBeNull();
    expect(eval1(call('LIKE', [s, literal('a%', notNull(T.CHAR(2)))], BOOL), [0, 0n, 'abc'])).toBe(true);
    expect(eval1(call('COALESCE', [s, literal('z', notNull(T.CHAR(1)))], notNull(T.STRING())), [0, 0n, null])).toBe('z');
    const row = inputRef(0, 'r', T.ROW(T.FIELD('x', T.INT()), T.FIELD('y', T.STRING())));
    expect(eval1(call('FIELD', [row, literal(1, notNull(T.INT()))], T.STRING()), [[1, 'why']])).toBe('why');
    const arr = inputRef(0, 'a', T.ARRAY(T.INT()));
    expect(eval1(call('ITEM', [arr, literal(2, notNull(T.INT()))], T.INT()), [[5, 6]])).toBe(6);
    expect(eval1(call('ITEM', [arr, literal(3, notNull(T.INT()))], T.INT()), [[5, 6]])).toBeNull();
  });

  it('compiles registry calls from the definition kept on the node', () => {
    const registry = createBuiltinRegistry();
    const fn = registry.lookup('SUBSTRING') as ScalarFunctionDefinition;
    const n: RexNode = { kind: 'call', op: 'SUBSTRING', operands: [s, literal(2, notNull(T.INT()))], type: T.STRING(), deterministic: true, fn };
    expect(eval1(n, [0, 0n, 'hello'])).toBe('ello');
  });
});

describe('compileRexCalc', () => {
  it('filters then projects a batch in one call, keeping row kinds', () => {
    const calc = compileRexCalc([s, call('*', [b, literal(2, notNull(T.INT()))], T.BIGINT())], call('=', [call('%', [b, literal(2n, notNull(T.BIGINT()))], T.BIGINT()), literal(0, notNull(T.INT()))], BOOL));
    const out: Row[] = [];
    calc([Row.insert(0, 4n, 'a'), Row.insert(0, 5n, 'b'), new Row(RowKind.UPDATE_AFTER, [0, 6n, 'c']), Row.insert(0, null, 'd')], out);
    expect(out.map((r) => [r.kind, ...r.fields])).toEqual([
      [RowKind.INSERT, 'a', 8n],
      [RowKind.UPDATE_AFTER, 'c', 12n],
    ]);
  });
});
