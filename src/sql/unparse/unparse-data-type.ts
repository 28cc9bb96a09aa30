import type { DataType, IntervalQualifier } from '../ast/data-types.js';
import { quoteName, quoteNames, quoteString } from './identifiers.js';

export function unparseIntervalQualifier(q: IntervalQualifier): string {
  let s: string = q.start;
  if (q.startPrecision !== null) {
    s += q.start === 'SECOND' && q.end === null && q.fractionalPrecision !== null ? `(${q.startPrecision}, ${q.fractionalPrecision})` : `(${q.startPrecision})`;
  }
  if (q.end !== null) {
    s += ` TO ${q.end}`;
    if (q.end === 'SECOND' && q.fractionalPrecision !== null) s += `(${q.fractionalPrecision})`;
  }
  return s;
}

function len(n: number | null): string {
  return n === null ? '' : `(${n})`;
}

/** Canonical Flink spelling of a data type, e.g. `ROW<\`a\` INT NOT NULL, \`b\` ARRAY<STRING>>`. */
export function unparseDataType(t: DataType): string {
  return base(t) + (t.notNull ? ' NOT NULL' : '');
}

function base(t: DataType): string {
  switch (t.kind) {
    case 'simple':
      return t.name;
    case 'char':
    case 'binary':
      return t.name + len(t.length);
    case 'decimal':
      if (t.precision === null) return 'DECIMAL';
      return t.scale === null ? `DECIMAL(${t.precision})` : `DECIMAL(${t.precision}, ${t.scale})`;
    case 'time':
      return `TIME${len(t.precision)}`;
    case 'timestamp':
      return (t.withLocalTimeZone ? 'TIMESTAMP_LTZ' : 'TIMESTAMP') + len(t.precision);
    case 'interval':
      return `INTERVAL ${unparseIntervalQualifier(t.qualifier)}`;
    case 'array':
      return `ARRAY<${unparseDataType(t.element)}>`;
    case 'multiset':
      return `MULTISET<${unparseDataType(t.element)}>`;
    case 'map':
      return `MAP<${unparseDataType(t.key)}, ${unparseDataType(t.value)}>`;
    case 'row':
      return `ROW<${t.fields
        .map((f) => `${quoteName(f.name)} ${unparseDataType(f.type)}${f.description === null ? '' : ` ${quoteString(f.description)}`}`)
        .join(', ')}>`;
    case 'raw':
      return `RAW(${quoteString(t.className)}${t.serializerSnapshot === null ? '' : `, ${quoteString(t.serializerSnapshot)}`})`;
    case 'user-defined':
      return quoteNames(t.names);
  }
}
