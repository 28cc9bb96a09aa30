import { rowKindShortString } from '../../types/row-kind.js';
import type { Row } from '../../types/row.js';
import { typeToString } from '../../types/type-to-string.js';
import { wrapColumns } from './display-width.js';
import { cellText, type TableauColumn, type TableauOptions } from './tableau.js';

/** Flink's client indents every line of its views by one space (`CliStrings.DEFAULT_MARGIN`). */
const MARGIN = ' ';

/**
 * One row in full, as Flink's row view shows it: per column a line `name (TYPE):`, the value below it
 * and an empty line (the change's `op` first in the changelog view); nothing cut: a value wider than the
 * screen goes on over the next lines, and a value with line breaks keeps them.
 */
export function rowDetailLines(columns: readonly TableauColumn[], row: Row, withOp: boolean, options: TableauOptions, width: number): string[] {
  const fields: (readonly [string, string])[] = columns.map((c, i) => [`${c.name} (${typeToString(c.type)})`, cellText(row.fields[i], c.type, options)]);
  if (withOp) fields.unshift(['op', rowKindShortString(row.kind)]);
  const lines: string[] = [];
  for (const [label, value] of fields) {
    lines.push(...wrapColumns(`${MARGIN}${label}:`, Math.max(1, width)));
    for (const v of value.split('\n')) lines.push(...wrapColumns(`${MARGIN}${v}`, Math.max(1, width)));
    lines.push('');
  }
  return lines;
}
