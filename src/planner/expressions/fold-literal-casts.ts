import type { BoundExpr } from './bound-expr.js';
import { makeCaster } from './cast.js';
import { literal } from './expr-factory.js';

/**
 * `expr` with every CAST of a non-null literal replaced by the converted literal, so generated code
 * holds `2n` instead of converting `2` on every row, and function code generators see constant operands
 * (a constant non-zero divisor needs no zero check). Casts that fail stay, so the error is raised when
 * the row is evaluated, as without folding. Compile time only.
 */
export function foldLiteralCasts(expr: BoundExpr, timeZone: string): BoundExpr {
  const fold = (e: BoundExpr): BoundExpr => foldLiteralCasts(e, timeZone);
  switch (expr.kind) {
    case 'input-ref':
    case 'literal':
    case 'symbol':
    case 'local-ref':
      return expr;
    case 'cast': {
      const operand = fold(expr.operand);
      if (operand.kind === 'literal' && operand.value !== null && operand.type.kind !== 'NULL') {
        try {
          const v = makeCaster(operand.type, expr.type, timeZone)(operand.value);
          if (v !== null && v !== undefined) return literal(v, expr.type);
        } catch {
          // left to fail per row
        }
      }
      return operand === expr.operand ? expr : { ...expr, operand };
    }
    case 'call': {
      const operands = expr.operands.map(fold);
      return operands.every((o, i) => o === expr.operands[i]) ? expr : { ...expr, operands };
    }
    case 'case':
      return {
        ...expr,
        whens: expr.whens.map((w) => ({ when: fold(w.when), then: fold(w.then) })),
        elseExpr: fold(expr.elseExpr),
      };
    case 'field-access':
      return { ...expr, operand: fold(expr.operand) };
    case 'item-access':
      return { ...expr, operand: fold(expr.operand), key: fold(expr.key) };
    default: {
      const never: never = expr;
      return never;
    }
  }
}
