import type { RowType } from '../../types/logical-type.js';
import { rowKindShortString, RowKind } from '../../types/row-kind.js';
import type { Row } from '../../types/row.js';
import { formatValue, type FormatOptions } from '../../types/values/format-value.js';
import { rowFieldsToJsonl } from '../../types/values/jsonl.js';

/**
 * One JSON object per row keyed by column name; rows other than +I carry their kind under `"$op"`.
 * Values as valueToJsonl defines them (exact BIGINT and DECIMAL).
 */
export function rowToJsonLine(row: Row, type: RowType, options: FormatOptions): string {
  const obj = rowFieldsToJsonl(row.fields, type, options);
  const out = row.kind === RowKind.INSERT ? obj : { $op: rowKindShortString(row.kind), ...obj };
  return JSON.stringify(out);
}

/** RFC 4180 CSV: a header line, then one line per row; NULL is an empty field. */
export function csvHeader(type: RowType, changelog: boolean): string {
  return [...(changelog ? ['op'] : []), ...type.fields.map((f) => f.name)].map(csvField).join(',');
}

export function rowToCsvLine(row: Row, type: RowType, changelog: boolean, options: FormatOptions): string {
  const cells = type.fields.map((f, i) => {
    const v = row.fields[i];
    return v === null || v === undefined ? '' : csvField(formatValue(v, f.type, options));
  });
  return (changelog ? [rowKindShortString(row.kind), ...cells] : cells).join(',');
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
