import type { TableResult } from '../../api/table-result.js';
import { RowKind } from '../../types/row-kind.js';
import { Row } from '../../types/row.js';
import { valuesEqual } from '../../types/values/equality.js';
import type { ConsoleIO, KeyPress } from '../console-io.js';
import { TableauPrinter, type TableauColumn, type TableauOptions } from './tableau.js';

const REFRESH_MS = 200;

/**
 * The REPL's `table` result mode (Flink's table view): the changelog is applied to a materialized table
 * (+I/+U add a row, -U/-D remove an equal one) and shown one page at a time, redrawn in place at most
 * every 200 ms, so a running aggregate shows its current values rather than its history. Keys: N next
 * page, P previous, F first, L last (and follow new rows), Q or Ctrl-C leave (cancelling a running query).
 * A finished result stays on screen until Q, as in Flink; without keyboard input the view ends with the
 * result.
 */
export async function printLiveTable(result: TableResult, columns: readonly TableauColumn[], io: ConsoleIO, options: TableauOptions): Promise<void> {
  const rows: unknown[][] = [];
  const pageSize = Math.max(5, (io.rows ?? 30) - 9);
  let page = -1; // -1 follows the last page
  let drawnLines = 0;
  let last = 0;
  let ended = false;
  let leave: () => void = () => {};
  const left = new Promise<void>((resolve) => (leave = resolve));
  const pages = (): number => Math.max(1, Math.ceil(rows.length / pageSize));

  const draw = (): void => {
    const shown = page < 0 ? pages() - 1 : Math.min(page, pages() - 1);
    const visible = rows.slice(shown * pageSize, (shown + 1) * pageSize).map((f) => Row.insert(...f));
    const state = ended ? `${rows.length} rows, finished` : `${rows.length} rows, refreshing`;
    const keys = io.onKeypress ? '  N next, P previous, F first, L last, Q quit' : '';
    // The page's own "N rows in set" footer would mislead here: the status line counts the whole result.
    const table = TableauPrinter.render(columns, visible, options).replace(/(\d+ rows? in set|Empty set)\n$/, '');
    const text = table + `Page ${shown + 1} of ${pages()} (${state})${keys}\n`;
    if (drawnLines > 0) io.out(`\x1b[${drawnLines}A\x1b[0J`);
    io.out(text);
    drawnLines = text.split('\n').length - 1;
  };

  const rowsIterator = result.collect();
  const onKey = (key: KeyPress): void => {
    if (key.name === 'q' || (key.ctrl && key.name === 'c')) {
      leave();
      return;
    }
    if (key.name === 'n') page = Math.min((page < 0 ? pages() - 1 : page) + 1, pages() - 1);
    else if (key.name === 'p') page = Math.max((page < 0 ? pages() - 1 : page) - 1, 0);
    else if (key.name === 'f') page = 0;
    else if (key.name === 'l') page = -1;
    else return;
    draw();
  };
  const stopKeys = io.onKeypress?.(onKey) ?? (() => {});

  const consume = (async (): Promise<void> => {
    for await (const row of rowsIterator) {
      if (row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER) rows.push(row.fields);
      else {
        const i = rows.findIndex((f) => f.length === row.fields.length && f.every((v, j) => valuesEqual(v, row.fields[j])));
        if (i >= 0) rows.splice(i, 1);
      }
      const now = Date.now();
      if (now - last >= REFRESH_MS) {
        last = now;
        draw();
      }
    }
    ended = true;
    draw();
    if (!io.onKeypress) leave();
  })();

  try {
    await Promise.race([left, consume]);
    if (!ended) {
      await rowsIterator.close();
      await consume.catch(() => undefined);
    } else {
      await left;
    }
  } finally {
    stopKeys();
  }
}
