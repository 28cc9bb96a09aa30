import type { TableResult } from '../../api/table-result.js';
import { RowKind, rowKindShortString } from '../../types/row-kind.js';
import { Row } from '../../types/row.js';
import { valuesEqual } from '../../types/values/equality.js';
import type { ConsoleIO, KeyPress } from '../console-io.js';
import { cellText, TableauPrinter, type TableauColumn, type TableauOptions } from './tableau.js';

/** Refresh intervals `+` and `-` step through, as Flink's table view (ms; Infinity: only on `R`). */
const REFRESH_STEPS: readonly (readonly [number, string])[] = [
  [100, '100 ms'],
  [200, '200 ms'],
  [500, '500 ms'],
  [1000, '1 s'],
  [5000, '5 s'],
  [10_000, '10 s'],
  [60_000, '1 min'],
  [Number.POSITIVE_INFINITY, 'off'],
];
const DEFAULT_REFRESH = 1;
/** How many changes the changelog view keeps; older ones scroll away (a stream has no end). */
const MAX_CHANGELOG_ROWS = 100_000;

/** Which of Flink's live result views: the materialized table, or the changelog as it arrives. */
export type LiveView = 'table' | 'changelog';

/**
 * The REPL's `table` result mode (Flink's table view): the changelog is applied to a materialized table
 * (+I/+U add a row, -U/-D remove an equal one) and shown one page at a time, redrawn in place at most
 * every 200 ms (`+` / `-` step the rate as Flink's view does, `R` redraws now), so a running aggregate
 * shows its current values rather than its history. Lines are cut to the terminal's width; Up / Down
 * select a row and `O` shows it in full. Keys: N next page, P previous, F first, L last (and follow new
 * rows), Q or Ctrl-C leave (cancelling a running query).
 * A finished result stays on screen until Q, as in Flink; without keyboard input the view ends with the
 * result.
 * The `changelog` result mode (Flink's changelog view) is the same view over every change as it came,
 * each with its `op` (+I, -U, +U, -D), following the newest; it keeps the latest MAX_CHANGELOG_ROWS.
 */
export async function printLiveTable(
  result: TableResult,
  columns: readonly TableauColumn[],
  io: ConsoleIO,
  options: TableauOptions,
  view: LiveView = 'table',
): Promise<void> {
  const changelog = view === 'changelog';
  const rows: Row[] = [];
  let dropped = 0;
  const pageSize = Math.max(5, (io.rows ?? 30) - 9);
  let page = -1; // -1 follows the last page
  let refresh = DEFAULT_REFRESH;
  /** The selected row on the page (Up / Down), and whether `O` opened it. */
  let selected = 0;
  let opened = false;
  let drawnLines = 0;
  let last = 0;
  let ended = false;
  let leave: () => void = () => {};
  const left = new Promise<void>((resolve) => (leave = resolve));
  const pages = (): number => Math.max(1, Math.ceil(rows.length / pageSize));

  const pageRows = (): Row[] => {
    const shown = page < 0 ? pages() - 1 : Math.min(page, pages() - 1);
    return rows.slice(shown * pageSize, (shown + 1) * pageSize);
  };
  const draw = (): void => {
    const shown = page < 0 ? pages() - 1 : Math.min(page, pages() - 1);
    const onPage = pageRows();
    selected = Math.max(0, Math.min(selected, onPage.length - 1));
    let text: string;
    if (opened && onPage[selected] !== undefined) {
      // One row in full, a line per column, nothing cut.
      const row = onPage[selected]!;
      const width = Math.max(changelog ? 2 : 0, ...columns.map((c) => c.name.length));
      const lines = columns.map((c, i) => `${c.name.padStart(width)}: ${cellText(row.fields[i], c.type, options)}`);
      if (changelog) lines.unshift(`${'op'.padStart(width)}: ${rowKindShortString(row.kind)}`);
      text = lines.join('\n') + '\n';
      text += `Row ${dropped + shown * pageSize + selected + 1} of ${dropped + rows.length}  any key: back to the ${view}\n`;
    } else {
      const visible = onPage;
      const count = changelog ? `${dropped + rows.length} changes${dropped > 0 ? ` (the latest ${rows.length} kept)` : ''}` : `${rows.length} rows`;
      const state = ended ? `${count}, finished` : `${count}, refreshing every ${REFRESH_STEPS[refresh]![1]}`;
      const keys = io.onKeypress ? '  N next, P previous, F first, L last, Up/Down select, O open row, +/- refresh rate, R refresh, Q quit' : '';
      // The page's own "N rows in set" footer would mislead here: the status line counts the whole result.
      const table = TableauPrinter.render(columns, visible, { ...options, streaming: changelog }).replace(
        /(\d+ rows? in set|Empty set|Received a total of \d+ rows?)\n$/,
        '',
      );
      // The selected row is marked in its first border column; rows are cut to the terminal's width.
      const lines = table.split('\n');
      const at = 3 + selected; // border, header, border, then the rows
      if (io.onKeypress && visible.length > 0 && lines[at] !== undefined) lines[at] = `>${lines[at]!.slice(1)}`;
      const cut = io.columns !== undefined && io.columns > 0 ? io.columns : Number.POSITIVE_INFINITY;
      text = lines.map((l) => (l.length > cut ? l.slice(0, cut) : l)).join('\n') + `Page ${shown + 1} of ${pages()} (${state})${keys}\n`;
    }
    if (drawnLines > 0) io.out(`\x1b[${drawnLines}A\x1b[0J`);
    io.out(text);
    drawnLines = text.split('\n').length - 1;
  };

  const rowsIterator = result.collect();
  const onKey = (key: KeyPress): void => {
    if (key.ctrl && key.name === 'c') {
      leave();
      return;
    }
    if (opened) {
      opened = false;
      draw();
      return;
    }
    if (key.name === 'q') {
      leave();
      return;
    }
    if (key.name === 'o') opened = pageRows().length > 0;
    else if (key.name === 'up') selected = Math.max(0, selected - 1);
    else if (key.name === 'down') selected += 1;
    else if (key.sequence === '+' || key.sequence === '=') refresh = Math.min(refresh + 1, REFRESH_STEPS.length - 1);
    else if (key.sequence === '-') refresh = Math.max(refresh - 1, 0);
    else if (key.name === 'r') {
      // Draw now, whatever the rate.
    } else if (key.name === 'n') page = Math.min((page < 0 ? pages() - 1 : page) + 1, pages() - 1);
    else if (key.name === 'p') page = Math.max((page < 0 ? pages() - 1 : page) - 1, 0);
    else if (key.name === 'f') page = 0;
    else if (key.name === 'l') page = -1;
    else return;
    draw();
  };
  const stopKeys = io.onKeypress?.(onKey) ?? (() => {});

  const consume = (async (): Promise<void> => {
    for await (const row of rowsIterator) {
      if (changelog) {
        rows.push(row);
        if (rows.length > MAX_CHANGELOG_ROWS) {
          rows.shift();
          dropped++;
        }
      } else if (row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER) rows.push(Row.insert(...row.fields));
      else {
        const i = rows.findIndex((r) => r.fields.length === row.fields.length && r.fields.every((v, j) => valuesEqual(v, row.fields[j])));
        if (i >= 0) rows.splice(i, 1);
      }
      const now = Date.now();
      if (!opened && now - last >= REFRESH_STEPS[refresh]![0]) {
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
