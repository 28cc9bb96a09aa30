import { describe, expect, it } from 'vitest';
import { PlanningError } from '../../../src/errors/sluice-error.js';
import { Decimal } from '../../../src/types/decimal.js';
import { typeToString } from '../../../src/types/type-to-string.js';
import { bindCall, caseWhen, inputRef, literal } from '../../../src/planner/expressions/expr-factory.js';
import { T, bind, call, evalExpr, fn } from './helpers.js';

describe('conditional functions', () => {
  it('COALESCE returns the first non-null and widens types', () => {
    expect(call('COALESCE', [[null, T.INT()], [2, T.INT()], [3, T.INT()]])).toBe(2);
    expect(call('COALESCE', [[null, T.INT()], [null, T.INT()]])).toBe(null);
    const b = bind('COALESCE', [[null, T.INT()], [2n, T.BIGINT()]]);
    expect(typeToString(b.call.type)).toBe('BIGINT NOT NULL');
    expect(call('COALESCE', [[null, T.INT()], [2n, T.BIGINT()]])).toBe(2n);
  });
  it('COALESCE does not evaluate operands after a non-null one', () => {
    const x = inputRef(0, T.INT());
    const risky = bindCall(fn('/'), [literal(1, T.INT()), x]);
    const e = bindCall(fn('COALESCE'), [inputRef(1, T.INT()), risky]);
    expect(evalExpr(e, [0, 7])).toBe(7);
    expect(() => evalExpr(e, [0, null])).toThrow('Division by zero');
  });
  it('IF, IFNULL, NULLIF', () => {
    expect(call('IF', [[true, T.BOOLEAN()], [1, T.INT()], [2, T.INT()]])).toBe(1);
    expect(call('IF', [[null, T.BOOLEAN()], [1, T.INT()], [2, T.INT()]])).toBe(2);
    expect(call('IFNULL', [[null, T.STRING()], ['x', T.STRING()]])).toBe('x');
    expect(call('NULLIF', [[5, T.INT()], [5, T.INT()]])).toBe(null);
    expect(call('NULLIF', [[5, T.INT()], [6, T.INT()]])).toBe(5);
  });
  it('GREATEST and LEAST (NULL if any argument is NULL)', () => {
    expect(call('GREATEST', [[1, T.INT()], [5, T.INT()], [3, T.INT()]])).toBe(5);
    expect(call('LEAST', [[1, T.INT()], [5n, T.BIGINT()]])).toBe(1n);
    expect(call('GREATEST', [[1, T.INT()], [null, T.INT()]])).toBe(null);
    expect(String(call('GREATEST', [[Decimal.parse('1.5'), T.DECIMAL(2, 1)], [Decimal.parse('1.25'), T.DECIMAL(3, 2)]]))).toBe('1.50');
  });
  it('IS_DIGIT, IS_ALPHA, TYPEOF', () => {
    expect(call('IS_DIGIT', [['123', T.STRING()]])).toBe(true);
    expect(call('IS_DIGIT', [['12a', T.STRING()]])).toBe(false);
    expect(call('IS_DIGIT', [[null, T.STRING()]])).toBe(false);
    expect(call('IS_ALPHA', [['abc', T.STRING()]])).toBe(true);
    expect(call('TYPEOF', [[1n, T.BIGINT()]])).toBe('BIGINT NOT NULL');
  });
  it('CASE picks the first TRUE branch, NULL conditions fall through, types are unified', () => {
    const x = inputRef(0, T.INT());
    const e = caseWhen(
      [
        { when: bindCall(fn('>'), [x, literal(10, T.INT())]), then: literal('big', T.STRING()) },
        { when: bindCall(fn('>'), [x, literal(0, T.INT())]), then: literal('small', T.STRING()) },
      ],
      null,
    );
    expect(evalExpr(e, [20])).toBe('big');
    expect(evalExpr(e, [5])).toBe('small');
    expect(evalExpr(e, [-1])).toBe(null);
    expect(evalExpr(e, [null])).toBe(null);
    const widened = caseWhen([{ when: literal(true, T.BOOLEAN()), then: literal(1, T.INT()) }], literal(2.5, T.DOUBLE()));
    expect(typeToString(widened.type)).toBe('DOUBLE NOT NULL');
    expect(evalExpr(widened)).toBe(1);
    expect(() => caseWhen([{ when: literal(1, T.INT()), then: literal(1, T.INT()) }], null)).toThrow(PlanningError);
  });
});
