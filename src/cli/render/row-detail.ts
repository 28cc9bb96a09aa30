import { rowKindShortString } from '../../types/row-kind.js';
import type { Row } from '../../types/row.js';
import { wrapColumns } from './display-width.js';
import { cellText, type TableauColumn, type TableauOptions } from './tableau.js';

/**
 * One row in full, as Flink's row view shows it: a line per column (`name: value`, and the change's `op`
 * first in the changelog view), nothing cut; a value wider than the screen goes on over the next lines,
 * and a value with line breaks keeps them.
 */
export function rowDetailLines(columns: readonly TableauColumn[], row: Row, withOp: boolean, options: TableauOptions, width: number): string[] {
  const nameWidth = Math.max(withOp ? 2 : 0, ...columns.map((c) => c.name.length));
  const fields = columns.map((c, i) => [c.name, cellText(row.fields[i], c.type, options)] as const);
  if (withOp) fields.unshift(['op', rowKindShortString(row.kind)]);
  const lines: string[] = [];
  for (const [name, value] of fields) {
    const valueLines = value.split('\n');
    valueLines.forEach((v, k) => {
      const line = `${k === 0 ? name.padStart(nameWidth) + ':' : ' '.repeat(nameWidth + 1)} ${v}`;
      lines.push(...wrapColumns(line, Math.max(1, width)));
    });
  }
  return lines;
}
