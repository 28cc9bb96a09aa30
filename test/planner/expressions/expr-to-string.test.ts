import { describe, expect, it } from 'vitest';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import { exprToString } from '../../../src/planner/expressions/expr-to-string.js';
import { bindCall, caseWhen, cast, inputRef, literal, nullLiteral } from '../../../src/planner/expressions/expr-factory.js';
import { createBuiltinRegistry } from '../../../src/planner/functions/builtin-registry.js';
import type { ScalarFunctionDefinition } from '../../../src/planner/functions/function-definition.js';

const registry = createBuiltinRegistry();
const fn = (n: string): ScalarFunctionDefinition => registry.lookup(n) as ScalarFunctionDefinition;

describe('exprToString', () => {
  const a = inputRef(0, T.INT());
  const amount = inputRef(1, T.INT());
  it('prints calls in prefix form with $n or field names', () => {
    expect(exprToString(bindCall(fn('+'), [a, literal(1, T.INT())]))).toBe('+($0, 1)');
    expect(exprToString(bindCall(fn('>'), [amount, literal(10, T.INT())]), ['id', 'amount'])).toBe('>(amount, 10)');
    expect(exprToString(bindCall(fn('IS NULL'), [a]))).toBe('IS NULL($0)');
    expect(exprToString(bindCall(fn('AND'), [bindCall(fn('>'), [a, literal(1, T.INT())]), bindCall(fn('<'), [a, literal(5, T.INT())])]))).toBe('AND(>($0, 1), <($0, 5))');
  });
  it('prints literals, casts and CASE', () => {
    expect(exprToString(literal('it\'s', T.STRING()))).toBe("'it''s'");
    expect(exprToString(literal(5n, T.BIGINT()))).toBe('5:BIGINT');
    expect(exprToString(literal(Decimal.parse('1.50'), T.DECIMAL(3, 2)))).toBe('1.50');
    expect(exprToString(literal(true, T.BOOLEAN()))).toBe('true');
    expect(exprToString(nullLiteral(T.INT()))).toBe('null:INT');
    expect(exprToString(cast(a, T.BIGINT()))).toBe('CAST($0 AS BIGINT)');
    expect(exprToString(bindCall(fn('='), [inputRef(0, T.STRING()), literal(1, T.INT())]))).toBe('=(CAST($0 AS INT), 1)');
    const c = caseWhen([{ when: bindCall(fn('>'), [a, literal(1, T.INT())]), then: literal('x', T.STRING()) }], literal('y', T.STRING()));
    expect(exprToString(c)).toBe("CASE(>($0, 1), 'x', 'y')");
  });
});
