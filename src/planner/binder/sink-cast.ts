import type { LogicalType } from '../../types/logical-type.js';

/** Numeric kinds in Flink's implicit widening order (LogicalTypeCasts): each casts implicitly to the later ones. */
const NUMERIC_ORDER = ['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'DECIMAL', 'FLOAT', 'DOUBLE'];

const FAMILIES: readonly (readonly string[])[] = [
  ['CHAR', 'VARCHAR'],
  ['BINARY', 'VARBINARY'],
  ['TIMESTAMP', 'TIMESTAMP_LTZ'],
];

/**
 * Whether a query column of type `from` may be written to a sink column of type `to` with an implicit
 * cast (Flink's `supportsImplicitCast`, which INSERT validation uses): numeric widening, lengths within the
 * character and binary families, timestamp precisions, and the same rule inside collections and rows.
 * Narrowing (BIGINT into INT) and cross-family casts (STRING into INT) are refused.
 */
export function supportsImplicitCast(from: LogicalType, to: LogicalType): boolean {
  if (from.kind === 'NULL') return true;
  const fi = NUMERIC_ORDER.indexOf(from.kind);
  const ti = NUMERIC_ORDER.indexOf(to.kind);
  if (fi >= 0 && ti >= 0) return fi <= ti;
  if (from.kind === 'ARRAY' || from.kind === 'MULTISET') return to.kind === from.kind && supportsImplicitCast(from.element, to.element);
  if (from.kind === 'MAP') return to.kind === 'MAP' && supportsImplicitCast(from.key, to.key) && supportsImplicitCast(from.value, to.value);
  if (from.kind === 'ROW') {
    return to.kind === 'ROW' && to.fields.length === from.fields.length && from.fields.every((f, i) => supportsImplicitCast(f.type, to.fields[i]!.type));
  }
  if (from.kind === to.kind) return true;
  return FAMILIES.some((fam) => fam.includes(from.kind) && fam.includes(to.kind));
}
