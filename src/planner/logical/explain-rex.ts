import type { LogicalType } from '../../types/logical-type.js';
import { formatValue } from '../../types/values/format-value.js';
import type { RexNode } from '../rex/rex-node.js';

/**
 * The three ways Flink's EXPLAIN prints an expression:
 * - `calcite`: the AST section, Calcite's RexNode digest: `>($0, 10)`, `_UTF-16LE'abc'`, `CAST($1):BIGINT`;
 * - `prefix`: the optimized physical plan: field names, prefix calls, `CAST(a AS BIGINT)`;
 * - `infix`: the optimized execution plan (ExpressionFormat.Infix since Flink 1.15): `((a > 10) AND (b = 'x'))`.
 */
export type RexStyle = 'calcite' | 'prefix' | 'infix';

/** Names input field `i` (physical and execution plans use the input's field names). */
export type FieldNamer = (index: number) => string;

const BINARY: ReadonlySet<string> = new Set(['+', '-', '*', '/', '=', '<>', '<', '<=', '>', '>=', '||']);
const POSTFIX: ReadonlySet<string> = new Set(['IS NULL', 'IS NOT NULL', 'IS TRUE', 'IS NOT TRUE', 'IS FALSE', 'IS NOT FALSE']);

/**
 * An expression as EXPLAIN prints it in `style`; `nameOf` names input refs in the prefix and infix styles.
 * `simplified` prints it as Flink's optimizer leaves a node's expressions (see retypeStringLiterals); the
 * digests of filters pushed into a scan do not ask for it.
 */
export function explainRex(n: RexNode, style: RexStyle, nameOf: FieldNamer, simplified = false): string {
  switch (n.kind) {
    case 'input-ref':
      return style === 'calcite' ? `$${n.index}` : nameOf(n.index);
    case 'literal':
      return literalText(n.value, n.type, style);
    case 'call':
      return callText(n.op, n.operands, n.type, style, nameOf, simplified);
    default: {
      const never: never = n;
      return never;
    }
  }
}

const COMPARISON: ReadonlySet<string> = new Set(['=', '<>', '<', '<=', '>', '>=']);

function callText(op: string, operands: readonly RexNode[], type: LogicalType, style: RexStyle, nameOf: FieldNamer, simplified: boolean): string {
  const args = operands.map((o) => explainRex(o, style, nameOf, simplified));
  if (simplified && style === 'prefix' && COMPARISON.has(op) && operands.length === 2) retypeStringLiterals(operands, args);
  switch (op) {
    case 'SYMBOL':
      return `FLAG(${String((operands[0] as { value: unknown }).value)})`;
    case 'CAST':
    case 'TRY_CAST':
      // Calcite's digest puts the type after the call; Flink's plans print SQL's CAST syntax, the physical plan
      // with a character string's charset (`CAST(b AS VARCHAR(2147483647) CHARACTER SET "UTF-16LE")`).
      if (style === 'calcite') return `${op}(${args[0]}):${calciteType(type)}`;
      return `${op}(${args[0]} AS ${flinkType(type)}${style === 'prefix' && (type.kind === 'CHAR' || type.kind === 'VARCHAR') ? ' CHARACTER SET "UTF-16LE"' : ''})`;
    case 'FIELD':
      return `${args[0]}.${fieldName(operands)}`;
    case 'NEGATE':
      return `-(${args[0]})`;
    case '%':
      // Calcite turns `a % b` into MOD(a, b) (StandardConvertletTable), which every section prints as a call.
      return `MOD(${args.join(', ')})`;
    default:
      break;
  }
  if (style === 'infix') {
    if (BINARY.has(op) && args.length === 2) return `(${args[0]} ${op} ${args[1]})`;
    if (op === 'AND' || op === 'OR') return `(${args.join(` ${op} `)})`;
    if (POSTFIX.has(op)) return `${args[0]} ${op}`;
  }
  return `${op}(${args.join(', ')})`;
}

/**
 * Flink's optimizer simplifies a comparison with a literal through a Sarg and back, which rebuilds the literal
 * with the other side's type: `c = 'xx'` over a STRING `c` prints `_UTF-16LE'xx':VARCHAR(2147483647) CHARACTER
 * SET "UTF-16LE"` in the physical plan, where a CHAR(n) literal (the default type, printed bare) stays in the AST
 * and under LIKE. Rewrites `args` in place.
 */
function retypeStringLiterals(operands: readonly RexNode[], args: string[]): void {
  operands.forEach((o, i) => {
    const other = operands[1 - i]!;
    if (o.kind !== 'literal' || o.type.kind !== 'CHAR' || o.value === null || other.kind === 'literal' || other.type.kind !== 'VARCHAR') return;
    args[i] = `${args[i]}:${calciteType({ ...other.type, nullable: true })}`;
  });
}

function fieldName(operands: readonly RexNode[]): string {
  const row = operands[0]!.type;
  const idx = operands[1];
  if (row.kind === 'ROW' && idx?.kind === 'literal') return row.fields[idx.value as number]?.name ?? '?';
  return '?';
}

/**
 * A literal as Calcite's RexLiteral digest: INTEGER, BOOLEAN, character strings and datetimes without a
 * type suffix, other numbers and intervals with one (`10:BIGINT`, `1000:INTERVAL SECOND`), strings with
 * their charset (`_UTF-16LE'x'`) except in the execution plan, which drops the type of all but intervals.
 */
function literalText(value: unknown, type: LogicalType, style: RexStyle): string {
  if (value === null || value === undefined) return style === 'infix' ? 'null' : `null:${calciteType(type)}`;
  switch (type.kind) {
    case 'CHAR':
    case 'VARCHAR': {
      const quoted = `'${String(value).replaceAll("'", "''")}'`;
      return style === 'infix' ? quoted : `_UTF-16LE${quoted}`;
    }
    case 'BOOLEAN':
      return value ? 'true' : 'false';
    case 'INT':
      return String(value);
    case 'INTERVAL_DAY_TIME':
    case 'INTERVAL_YEAR_MONTH':
      return `${String(value)}:${calciteType({ ...type, nullable: true })}`;
    case 'DATE':
    case 'TIME':
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return formatValue(value, type);
    case 'TINYINT':
    case 'SMALLINT':
    case 'BIGINT':
    case 'DECIMAL':
    case 'FLOAT':
    case 'DOUBLE': {
      const text = type.kind === 'DOUBLE' || type.kind === 'FLOAT' ? javaDouble(value as number) : formatValue(value, type);
      return style === 'infix' ? text : `${text}:${calciteType({ ...type, nullable: true })}`;
    }
    default:
      return formatValue(value, type);
  }
}

/** Java's Double.toString, as Calcite and Flink print doubles (`1.0E8`, `5000000.0`, `0.5`). */
export function javaDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(x);
    return s.includes('.') ? s : `${s}.0`;
  }
  const [mantissa, exp] = x.toExponential().split('e') as [string, string];
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exp.startsWith('+') ? exp.slice(1) : exp}`;
}

/** A type as Calcite's RelDataType digest (the AST section): `INTEGER`, `VARCHAR(2147483647) CHARACTER SET "UTF-16LE"`. */
export function calciteType(t: LogicalType): string {
  const notNull = t.nullable ? '' : ' NOT NULL';
  switch (t.kind) {
    case 'CHAR':
    case 'VARCHAR':
      return `${t.kind}(${t.length}) CHARACTER SET "UTF-16LE"${notNull}`;
    default:
      return `${flinkType(t)}${notNull}`;
  }
}

/** A type as Flink's plans print it in CAST and rowType: Calcite's names without charset or nullability. */
export function flinkType(t: LogicalType): string {
  switch (t.kind) {
    case 'INT':
      return 'INTEGER';
    case 'CHAR':
    case 'BINARY':
    case 'VARCHAR':
    case 'VARBINARY':
      return `${t.kind}(${t.length})`;
    case 'DECIMAL':
      return `DECIMAL(${t.precision}, ${t.scale})`;
    case 'TIME':
      return `TIME(${t.precision})`;
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ': {
      // Time indicators are Flink's own RelDataType, printed with Flink's short name.
      if (t.timeAttribute !== undefined) return `${t.kind}(${t.precision}) *${t.timeAttribute}*`;
      return t.kind === 'TIMESTAMP' ? `TIMESTAMP(${t.precision})` : `TIMESTAMP_WITH_LOCAL_TIME_ZONE(${t.precision})`;
    }
    case 'INTERVAL_DAY_TIME':
    case 'INTERVAL_YEAR_MONTH':
      return `INTERVAL ${t.resolution.replaceAll('_TO_', ' TO ')}`;
    case 'ARRAY':
    case 'MULTISET':
      return `${flinkType(t.element)} ${t.kind}`;
    case 'MAP':
      return `(${flinkType(t.key)}, ${flinkType(t.value)}) MAP`;
    case 'ROW':
      return `RecordType(${t.fields.map((f) => `${flinkType(f.type)} ${f.name}`).join(', ')})`;
    default:
      return t.kind;
  }
}
