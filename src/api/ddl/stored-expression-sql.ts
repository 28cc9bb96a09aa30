import type { BinaryExpr, Expression, FunctionCall } from '../../sql/ast/expressions.js';
import { rewriteExpression } from '../../sql/ast/rewrite-expression.js';
import { unparseExpression } from '../../sql/unparse/unparse-expression.js';
import { createBuiltinRegistry } from '../../planner/functions/builtin-registry.js';
import type { FunctionRegistry } from '../../planner/functions/function-registry.js';

let builtins: FunctionRegistry | undefined;

/**
 * The SQL text a computed column or a watermark keeps in the catalog, as Flink keeps it: the expression as its
 * validator hands it back, not as typed. Flink 2.3 (checked with its SQL client, scripts/flink-sql-client.sh) stores
 * `coalesce(b, 'x')` as `COALESCE(\`b\`, 'x')`, `substring(b from 1 for 2)` as `SUBSTRING(\`b\`, 1, 2)`, `trim(b)` as
 * `TRIM(BOTH ' ' FROM \`b\`)` and `CASE a WHEN 1 THEN 'one' END` as `CASE WHEN \`a\` = 1 THEN 'one' ELSE NULL END`;
 * SHOW CREATE TABLE and DESCRIBE print that text. Names of functions that are not built in (catalog or temporary
 * functions) stay as written. Not (yet) as Flink: Calcite's own spellings, `CAST(a AS INTEGER)` for INT,
 * `BETWEEN ASYMMETRIC`, `- \`a\``.
 */
export function storedExpressionSql(expr: Expression): string {
  return unparseExpression(rewriteExpression(expr, canonical));
}

function canonical(node: Expression): Expression {
  switch (node.kind) {
    case 'function-call':
      return builtinName(node);
    case 'substring': {
      const args = node.length === null ? [node.expr, node.from] : [node.expr, node.from, node.length];
      const call: FunctionCall = { kind: 'function-call', name: ['SUBSTRING'], quantifier: null, args, filter: null, nullTreatment: null, over: null, pos: node.pos };
      return call;
    }
    case 'trim':
      // TRIM(s) is TRIM(BOTH ' ' FROM s) once validated.
      return { ...node, side: node.side ?? 'BOTH', chars: node.chars ?? { kind: 'string-literal', value: ' ', pos: node.pos } };
    case 'case': {
      // Calcite validates a simple CASE into a searched one and gives every CASE its ELSE.
      const operand = node.operand;
      const whens = operand === null ? node.whens : node.whens.map((w) => ({ ...w, when: equals(operand, w.when) }));
      return { ...node, operand: null, whens, elseExpr: node.elseExpr ?? { kind: 'null-literal', pos: node.pos } };
    }
    default:
      return node;
  }
}

function equals(left: Expression, right: Expression): BinaryExpr {
  return { kind: 'binary', op: '=', left, right, pos: right.pos };
}

/** A call of a built-in function under its upper-case name, as Flink's validator names it (`coalesce` is COALESCE). */
export function builtinName(call: FunctionCall): FunctionCall {
  if (call.name.length !== 1) return call;
  builtins ??= createBuiltinRegistry();
  const upper = call.name[0]!.toUpperCase();
  return upper !== call.name[0] && builtins.has(upper) ? { ...call, name: [upper] } : call;
}
