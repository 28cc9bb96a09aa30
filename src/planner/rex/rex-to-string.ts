import { formatValue } from '../../types/values/format-value.js';
import type { RexNode } from './rex-node.js';

const INFIX: ReadonlySet<string> = new Set(['+', '-', '*', '/', '%', '=', '<>', '<', '<=', '>', '>=', '||']);

/**
 * Flink-style text of an expression for EXPLAIN: `>(a, 1)`, `CAST(b AS BIGINT)`, `'x'`.
 * `nameOf` names input fields (by default their binding name).
 */
export function rexToString(n: RexNode, nameOf: (index: number, name: string) => string = (_i, name) => name): string {
  switch (n.kind) {
    case 'input-ref':
      return nameOf(n.index, n.name);
    case 'literal':
      if (n.value === null) return 'null:' + n.type.kind;
      if (typeof n.value === 'string') return `'${n.value.replaceAll("'", "''")}'`;
      return formatValue(n.value, n.type);
    case 'call': {
      const args = n.operands.map((o) => rexToString(o, nameOf));
      if (n.op === 'SYMBOL') return String((n.operands[0] as { value: unknown }).value);
      if (n.op === 'CAST' || n.op === 'TRY_CAST') return `${n.op}(${args[0]} AS ${typeName(n)})`;
      if (n.op === 'FIELD') return `${args[0]}.${fieldName(n)}`;
      if (INFIX.has(n.op) || n.op.startsWith('IS ') || n.op === 'AND' || n.op === 'OR' || n.op === 'NOT' || n.op === 'LIKE' || n.op === 'NOT LIKE') {
        return `${n.op === 'NEGATE' ? '-' : n.op}(${args.join(', ')})`;
      }
      if (n.op === 'NEGATE') return `-(${args[0]})`;
      if (n.op === 'CASE') return `CASE(${args.join(', ')})`;
      return `${n.op}(${args.join(', ')})`;
    }
    default: {
      const never: never = n;
      return never;
    }
  }
}

function typeName(n: RexNode): string {
  const t = n.type;
  switch (t.kind) {
    case 'VARCHAR':
      return t.length === 2147483647 ? 'VARCHAR(2147483647)' : `VARCHAR(${t.length})`;
    case 'CHAR':
      return `CHAR(${t.length})`;
    case 'DECIMAL':
      return `DECIMAL(${t.precision}, ${t.scale})`;
    case 'INT':
      return 'INTEGER';
    default:
      return t.kind;
  }
}

function fieldName(n: RexNode): string {
  if (n.kind !== 'call') return '?';
  const row = n.operands[0]!.type;
  const idx = n.operands[1];
  if (row.kind === 'ROW' && idx?.kind === 'literal') return row.fields[idx.value as number]?.name ?? '?';
  return '?';
}
