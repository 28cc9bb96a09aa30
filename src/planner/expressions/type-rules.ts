import { PlanningError } from '../../errors/sluice-error.js';
import { DataTypes } from '../../types/data-types.js';
import { decimalCommonType, toDecimalType } from '../../types/decimal-type-rules.js';
import { DECIMAL_MAX_PRECISION, MAX_LENGTH, withNullability } from '../../types/logical-type.js';
import type { LogicalType, LogicalTypeKind } from '../../types/logical-type.js';

/**
 * Type families and Flink's implicit-conversion rules, used by function type inference and the binder.
 * Planning-time only.
 */

const NUMERIC_RANK: Partial<Record<LogicalTypeKind, number>> = {
  TINYINT: 1,
  SMALLINT: 2,
  INT: 3,
  BIGINT: 4,
  DECIMAL: 5,
  FLOAT: 6,
  DOUBLE: 7,
};

export function isNumeric(t: LogicalType): boolean {
  return NUMERIC_RANK[t.kind] !== undefined;
}

/** TINYINT, SMALLINT, INT, BIGINT. */
export function isIntegral(t: LogicalType): boolean {
  const r = NUMERIC_RANK[t.kind];
  return r !== undefined && r <= 4;
}

/** Integral or DECIMAL. */
export function isExactNumeric(t: LogicalType): boolean {
  const r = NUMERIC_RANK[t.kind];
  return r !== undefined && r <= 5;
}

export function isApproxNumeric(t: LogicalType): boolean {
  return t.kind === 'FLOAT' || t.kind === 'DOUBLE';
}

export function isCharacterString(t: LogicalType): boolean {
  return t.kind === 'CHAR' || t.kind === 'VARCHAR';
}

export function isBinaryString(t: LogicalType): boolean {
  return t.kind === 'BINARY' || t.kind === 'VARBINARY';
}

export function isTimestamp(t: LogicalType): boolean {
  return t.kind === 'TIMESTAMP' || t.kind === 'TIMESTAMP_LTZ';
}

/** DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ. */
export function isDatetime(t: LogicalType): boolean {
  return t.kind === 'DATE' || t.kind === 'TIME' || isTimestamp(t);
}

export function isInterval(t: LogicalType): boolean {
  return t.kind === 'INTERVAL_YEAR_MONTH' || t.kind === 'INTERVAL_DAY_TIME';
}

/** The NULL type of an untyped NULL literal: fits anywhere. */
export function isNullType(t: LogicalType): boolean {
  return t.kind === 'NULL';
}

/** True when any type is nullable. */
export function anyNullable(types: readonly LogicalType[]): boolean {
  return types.some((t) => t.nullable);
}

/** The common type of two numeric types for arithmetic and comparison (nullable iff either is). */
export function widenNumeric(a: LogicalType, b: LogicalType): LogicalType {
  const nullable = a.nullable || b.nullable;
  const ra = NUMERIC_RANK[a.kind]!;
  const rb = NUMERIC_RANK[b.kind]!;
  if (a.kind === 'DOUBLE' || b.kind === 'DOUBLE') return withNullability(DataTypes.DOUBLE(), nullable);
  if (a.kind === 'FLOAT' || b.kind === 'FLOAT') return withNullability(DataTypes.FLOAT(), nullable);
  if (a.kind === 'DECIMAL' || b.kind === 'DECIMAL') {
    const da = toDecimalType(a)!;
    const db = toDecimalType(b)!;
    const scale = Math.max(da.scale, db.scale);
    const intDigits = Math.max(da.precision - da.scale, db.precision - db.scale);
    const precision = Math.min(DECIMAL_MAX_PRECISION, intDigits + scale);
    return withNullability(DataTypes.DECIMAL(precision, Math.min(scale, precision)), nullable);
  }
  return withNullability(ra >= rb ? a : b, nullable);
}

/**
 * The common type of two numeric types where values of both meet in one column (CASE, UNION, COALESCE, join
 * keys): as widenNumeric, except that two exact types of which one is a DECIMAL meet by Calcite's
 * least-restrictive rule (decimalCommonType), which may drop fraction digits to keep the integer ones.
 */
function leastRestrictiveNumeric(a: LogicalType, b: LogicalType): LogicalType {
  const da = isExactNumeric(a) ? toDecimalType(a) : undefined;
  const db = isExactNumeric(b) ? toDecimalType(b) : undefined;
  if ((a.kind === 'DECIMAL' || b.kind === 'DECIMAL') && da !== undefined && db !== undefined) {
    return withNullability(decimalCommonType(da.precision, da.scale, db.precision, db.scale), a.nullable || b.nullable);
  }
  return widenNumeric(a, b);
}

/**
 * Flink's least-restrictive common type of several types (CASE branches, COALESCE, IN lists, UNION
 * columns, ARRAY elements), or undefined when there is none. NULL types are absorbed; the result is
 * nullable when any input is.
 */
export function commonType(types: readonly LogicalType[]): LogicalType | undefined {
  const nullable = anyNullable(types);
  const real = types.filter((t) => t.kind !== 'NULL');
  if (real.length === 0) return DataTypes.NULL();
  let acc: LogicalType = real[0]!;
  for (let i = 1; i < real.length; i++) {
    const next = commonOfTwo(acc, real[i]!);
    if (next === undefined) return undefined;
    acc = next;
  }
  return withNullability(acc, nullable);
}

function commonOfTwo(a: LogicalType, b: LogicalType): LogicalType | undefined {
  const nullable = a.nullable || b.nullable;
  if (isNumeric(a) && isNumeric(b)) return leastRestrictiveNumeric(a, b);
  if (isCharacterString(a) && isCharacterString(b)) {
    const la = (a as { length: number }).length;
    const lb = (b as { length: number }).length;
    // Flink 2.x (FlinkTypeSystem.shouldConvertRaggedUnionTypesToVarying): CHARs of different lengths meet
    // as VARCHAR, so CASE/IF/COALESCE over 'no' and 'none' is not space-padded. Flink 1.x padded to CHAR.
    // Built as a literal, not with DataTypes.CHAR: two empty literals meet as CHAR(0), the length only the empty
    // literal has (Flink's CharType.ofEmptyLiteral), and COALESCE('', '') is valid there.
    if (a.kind === 'CHAR' && b.kind === 'CHAR' && la === lb) return { kind: 'CHAR', length: la, nullable };
    return { kind: 'VARCHAR', length: Math.min(MAX_LENGTH, Math.max(la, lb)), nullable };
  }
  if (isBinaryString(a) && isBinaryString(b)) {
    const la = (a as { length: number }).length;
    const lb = (b as { length: number }).length;
    const kind = a.kind === 'BINARY' && b.kind === 'BINARY' && la === lb ? 'BINARY' : 'VARBINARY';
    return { kind, length: Math.max(la, lb), nullable };
  }
  if (a.kind === b.kind) {
    switch (a.kind) {
      case 'TIMESTAMP':
      case 'TIMESTAMP_LTZ':
      case 'TIME': {
        const p = Math.max(a.precision, (b as typeof a).precision);
        return { ...a, precision: p, nullable } as LogicalType;
      }
      case 'ARRAY':
      case 'MULTISET': {
        const e = commonType([a.element, (b as typeof a).element]);
        return e === undefined ? undefined : { kind: a.kind, element: e, nullable };
      }
      case 'MAP': {
        const o = b as typeof a;
        const k = commonType([a.key, o.key]);
        const v = commonType([a.value, o.value]);
        return k === undefined || v === undefined ? undefined : { kind: 'MAP', key: k, value: v, nullable };
      }
      case 'ROW': {
        const o = b as typeof a;
        if (a.fields.length !== o.fields.length) return undefined;
        const fields = [];
        for (let i = 0; i < a.fields.length; i++) {
          const t = commonType([a.fields[i]!.type, o.fields[i]!.type]);
          if (t === undefined) return undefined;
          fields.push({ name: a.fields[i]!.name, type: t });
        }
        return { kind: 'ROW', fields, nullable };
      }
      case 'INTERVAL_DAY_TIME':
      case 'INTERVAL_YEAR_MONTH':
        return withNullability(a, nullable);
      default:
        return withNullability(a, nullable);
    }
  }
  // DATE and TIMESTAMP have no common type: Calcite refuses to compare them, or to mix them in CASE, IF, IN, VALUES
  // and UNION (a real Flink 2.3: "Cannot apply '=' to arguments of type '<DATE> = <TIMESTAMP(0)>'").
  if (isTimestamp(a) && isTimestamp(b)) {
    const pa = (a as { precision: number }).precision;
    const pb = (b as { precision: number }).precision;
    return { kind: 'TIMESTAMP_LTZ', precision: Math.max(pa, pb), nullable };
  }
  return undefined;
}

/**
 * How a comparison meets two numbers of which one is a DECIMAL, as Flink 2.3 does it:
 * - `exact`: by value, each operand a DECIMAL of its own (an integer as its DECIMAL): `<`, `<=`, `>`, `>=`,
 *   BETWEEN, IS [NOT] DISTINCT FROM and an IN list that is not all literals (Calcite makes no cast there);
 * - `least-restrictive`: both cast to their least-restrictive common type first, as Calcite converts `=` and
 *   `<>` (simple CASE and NULLIF compare with `=`; an IN list of literals becomes a SEARCH cast alike). So
 *   DECIMAL(10, 2) 1.50 = DECIMAL(38, 0) 2 is TRUE on a real Flink 2.3 while 1.50 < 2 is TRUE as well.
 */
export type NumericComparison = 'exact' | 'least-restrictive';

/**
 * Operand types for a comparison of `a` and `b` (=, <, IN, BETWEEN, IS DISTINCT FROM), or undefined when
 * they cannot be compared. As Flink: numerics meet as `numeric` says, a string compared with a numeric,
 * temporal or boolean value is cast to that type, temporal types meet at the wider one.
 */
export function comparisonTypes(a: LogicalType, b: LogicalType, numeric: NumericComparison = 'exact'): readonly [LogicalType, LogicalType] | undefined {
  if (a.kind === 'NULL' || b.kind === 'NULL') {
    const t = a.kind === 'NULL' ? b : a;
    return [withNullability(t, true), withNullability(t, true)];
  }
  if (isCharacterString(a) && !isCharacterString(b) && castTarget(b)) return [withNullability(b, a.nullable), b];
  if (isCharacterString(b) && !isCharacterString(a) && castTarget(a)) return [a, withNullability(a, b.nullable)];
  if (numeric === 'exact' && (a.kind === 'DECIMAL' || b.kind === 'DECIMAL') && isExactNumeric(a) && isExactNumeric(b)) {
    // Decimal values compare by value whatever their scales; no common type could hold both in 38 digits.
    return [withNullability(toDecimalType(a)!, a.nullable), withNullability(toDecimalType(b)!, b.nullable)];
  }
  const c = commonOfTwo(a, b);
  if (c === undefined) return undefined;
  return [withNullability(c, a.nullable), withNullability(c, b.nullable)];
}

function castTarget(t: LogicalType): boolean {
  return isNumeric(t) || isDatetime(t) || t.kind === 'BOOLEAN';
}

/** Calcite's name of a type in error messages: INTEGER, VARCHAR(2147483647), DECIMAL(10, 2). */
export function sqlTypeName(t: LogicalType): string {
  switch (t.kind) {
    case 'INT':
      return 'INTEGER';
    case 'VARCHAR':
    case 'CHAR':
    case 'BINARY':
    case 'VARBINARY':
      return `${t.kind}(${t.length})`;
    case 'DECIMAL':
      return `DECIMAL(${t.precision}, ${t.scale})`;
    case 'TIMESTAMP':
      return `TIMESTAMP(${t.precision})`;
    case 'TIMESTAMP_LTZ':
      return `TIMESTAMP_WITH_LOCAL_TIME_ZONE(${t.precision})`;
    case 'TIME':
      return `TIME(${t.precision})`;
    case 'INTERVAL_DAY_TIME':
      return `INTERVAL ${t.resolution.replaceAll('_', ' ')}`;
    case 'INTERVAL_YEAR_MONTH':
      return `INTERVAL ${t.resolution.replaceAll('_', ' ')}`;
    case 'ARRAY':
      return `${sqlTypeName(t.element)} ARRAY`;
    case 'MULTISET':
      return `${sqlTypeName(t.element)} MULTISET`;
    case 'MAP':
      return `(${sqlTypeName(t.key)}, ${sqlTypeName(t.value)}) MAP`;
    case 'ROW':
      return `RecordType(${t.fields.map((f) => `${sqlTypeName(f.type)} ${f.name}`).join(', ')})`;
    default:
      return t.kind;
  }
}

/**
 * The PlanningError for a call whose operands do not fit, in Calcite's words:
 * `Cannot apply '+' to arguments of type '<BOOLEAN> + <INTEGER>'. Supported form(s): '<NUMERIC> + <NUMERIC>'`.
 * `infix` prints binary operators between their operands, everything else as `NAME(<A>, <B>)`.
 */
export function cannotApply(name: string, argTypes: readonly LogicalType[], supported: readonly string[], infix = false): PlanningError {
  const args = argTypes.map((t) => `<${sqlTypeName(t)}>`);
  const form = infix && args.length === 2 ? `${args[0]} ${name} ${args[1]}` : `${name}(${args.join(', ')})`;
  return new PlanningError(`Cannot apply '${name}' to arguments of type '${form}'. Supported form(s): ${supported.map((s) => `'${s}'`).join('\n')}`);
}
