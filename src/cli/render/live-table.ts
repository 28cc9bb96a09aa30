import type { TableResult } from '../../api/table-result.js';
import { RowKind } from '../../types/row-kind.js';
import { Row } from '../../types/row.js';
import { valuesEqual } from '../../types/values/equality.js';
import type { ConsoleIO } from '../console-io.js';
import { TableauPrinter, type TableauColumn, type TableauOptions } from './tableau.js';

const REFRESH_MS = 200;
/** Rows shown at once; the newest rows stay visible, as the head of a long result scrolls away. */
const MAX_VISIBLE_ROWS = 40;

/**
 * The REPL's `table` result mode: the changelog is applied to a materialized table (+I/+U add a row,
 * -U/-D remove an equal one) and the view is redrawn in place at most every 200 ms, so a running
 * aggregate shows its current values rather than its history. Ctrl-C stops the query.
 */
export async function printLiveTable(result: TableResult, columns: readonly TableauColumn[], io: ConsoleIO, options: TableauOptions): Promise<void> {
  const rows: unknown[][] = [];
  let drawnLines = 0;
  let last = 0;
  const draw = (final: boolean): void => {
    const visible = rows.slice(-MAX_VISIBLE_ROWS).map((f) => Row.insert(...f));
    const text = TableauPrinter.render(columns, visible, options) + (final ? '' : `Refreshing... ${rows.length} rows (Ctrl-C to stop)\n`);
    if (drawnLines > 0) io.out(`\x1b[${drawnLines}A\x1b[0J`);
    io.out(text);
    drawnLines = text.split('\n').length - 1;
  };
  for await (const row of result.collect()) {
    if (row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER) rows.push(row.fields);
    else {
      const i = rows.findIndex((f) => f.length === row.fields.length && f.every((v, j) => valuesEqual(v, row.fields[j])));
      if (i >= 0) rows.splice(i, 1);
    }
    const now = Date.now();
    if (now - last >= REFRESH_MS) {
      last = now;
      draw(false);
    }
  }
  draw(true);
}
