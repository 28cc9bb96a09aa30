import type { LogicalType } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import { formatValue } from '../../types/values/format-value.js';
import type { BoundExpr } from './bound-expr.js';

/**
 * An expression in the style of Flink's plans (Calcite's RexNode digest): `+($0, 1)`, `>(amount, 10)`,
 * `CAST($1 AS BIGINT)`, `CASE(>($0, 1), 'a', 'b')`, `IS NULL($2)`, `$0.f`, `ITEM($0, 1)`.
 * With `fieldNames` input references print by name. For EXPLAIN; not a hot path.
 */
export function exprToString(expr: BoundExpr, fieldNames?: readonly string[]): string {
  const s = (e: BoundExpr): string => exprToString(e, fieldNames);
  switch (expr.kind) {
    case 'input-ref':
      return fieldNames?.[expr.index] ?? `$${expr.index}`;
    case 'local-ref':
      return `$t${expr.index}`;
    case 'literal':
      return literalToString(expr.value, expr.type);
    case 'symbol':
      return expr.value;
    case 'call':
      return `${expr.fn.name}(${expr.operands.map(s).join(', ')})`;
    case 'cast':
      return `${expr.tryCast ? 'TRY_CAST' : 'CAST'}(${s(expr.operand)} AS ${typeToString(expr.type)})`;
    case 'case':
      return `CASE(${[...expr.whens.flatMap((w) => [s(w.when), s(w.then)]), s(expr.elseExpr)].join(', ')})`;
    case 'field-access':
      return `${s(expr.operand)}.${expr.name}`;
    case 'item-access':
      return `ITEM(${s(expr.operand)}, ${s(expr.key)})`;
    default: {
      const never: never = expr;
      return never;
    }
  }
}

function literalToString(value: unknown, type: LogicalType): string {
  if (value === null) return type.kind === 'NULL' ? 'null' : `null:${typeToString(type).replace(/ NOT NULL$/, '')}`;
  switch (type.kind) {
    case 'CHAR':
    case 'VARCHAR':
      return `'${String(value).replaceAll("'", "''")}'`;
    case 'BIGINT':
      return `${String(value)}:BIGINT`;
    case 'DATE':
    case 'TIME':
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return `${type.kind === 'TIMESTAMP_LTZ' ? 'TIMESTAMP_LTZ' : type.kind} '${formatValue(value, type)}'`;
    case 'INT':
    case 'BOOLEAN':
    case 'DECIMAL':
      return formatValue(value, type).toLowerCase();
    default:
      return formatValue(value, type);
  }
}
