import { describe, expect, it } from 'vitest';
import { PlanningError } from '../../../src/errors/sluice-error.js';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { scalarEvaluator } from '../../../src/planner/expressions/scalar-evaluator.js';
import { createBuiltinRegistry } from '../../../src/planner/functions/builtin-registry.js';
import type { ScalarFunctionDefinition } from '../../../src/planner/functions/function-definition.js';

const r = createBuiltinRegistry();
const fn = (n: string): ScalarFunctionDefinition => r.lookup(n) as ScalarFunctionDefinition;

describe('scalarEvaluator', () => {
  it('applies implicit casts and null handling over evaluated operands', () => {
    const plus = scalarEvaluator(fn('+'), [T.INT(), T.BIGINT()]);
    expect(plus.type.kind).toBe('BIGINT');
    expect(plus.impl([1, 2n])).toBe(3n);
    expect(plus.impl([null, 2n])).toBe(null);
  });
  it('binds symbol and literal constants', () => {
    const year = scalarEvaluator(fn('EXTRACT'), [T.STRING(), T.TIMESTAMP(3)], { constants: [{ symbol: 'YEAR' }] });
    expect(year.impl([null, Date.UTC(2021, 5, 1)])).toBe(2021n);
    const round = scalarEvaluator(fn('ROUND'), [T.DOUBLE(), T.INT()], { constants: [undefined, { literal: 1 }] });
    expect(round.impl([2.25, null])).toBe(2.3);
  });
  it('reports operand mismatches at planning time', () => {
    expect(() => scalarEvaluator(fn('UPPER'), [T.INT()])).toThrow(PlanningError);
  });
});
