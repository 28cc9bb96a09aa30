import type { TableResult } from '../../api/table-result.js';
import type { Row } from '../../types/row.js';
import type { ConsoleIO, KeyPress } from '../console-io.js';
import { columnSlice } from './display-width.js';
import { FullScreen, type ScreenLine } from './full-screen.js';
import { ChangelogRows, type LiveRows, MaterializedTable } from './live-rows.js';
import { rowDetailLines } from './row-detail.js';
import { TableauPrinter, type TableauColumn, type TableauOptions } from './tableau.js';

/** Refresh intervals `+` and `-` step through, Flink's list (ms; `-`: only on `R`). */
const REFRESH_STEPS: readonly (readonly [number, string])[] = [
  [100, '100 ms'],
  [500, '500 ms'],
  [1000, '1 s'],
  [5000, '5 s'],
  [10_000, '10 s'],
  [60_000, '1 min'],
  [Number.POSITIVE_INFINITY, '-'],
];
/** Every second, as Flink's views start. */
const DEFAULT_REFRESH = 2;
/** How many changes the changelog view keeps; older ones scroll away (a stream has no end). */
const MAX_CHANGELOG_ROWS = 100_000;
/** Columns Left / Right move a table wider than the screen by. */
const SCROLL_STEP = 8;
/** Lines around the rows besides the keys: title, status line, the table's top border, header and separator, its bottom border. */
const CHROME_LINES = 6;
/** The page shown follows the newest rows. */
const LAST = -1;

/** The keys listed at the bottom, Flink's first. */
const TABLE_KEYS: readonly string[] = [
  'Q Quit',
  'R Refresh',
  '+/- Refresh Rate',
  'Enter/O Open Row',
  'Up/Down Select',
  'Left/Right Scroll',
  'N/PgDn Next Page',
  'P/PgUp Prev Page',
  'F/Home First Page',
  'L/End Last Page',
  'G Goto Page',
];

/** `keys` in as few lines as fit `width` (the table's at least two, as Flink lays them out), none cut in half. */
function keyLines(width: number, keys: readonly string[] = TABLE_KEYS): string[] {
  const lines: string[] = [];
  let line = '';
  for (const k of keys) {
    if (line !== '' && line.length + 2 + k.length > width) {
      lines.push(line);
      line = k;
    } else line = line === '' ? k : `${line}  ${k}`;
  }
  lines.push(line);
  if (lines.length === 1 && keys === TABLE_KEYS) {
    const half = Math.ceil(TABLE_KEYS.length / 2);
    return [TABLE_KEYS.slice(0, half).join('  '), TABLE_KEYS.slice(half).join('  ')];
  }
  return lines;
}

/** The cells of one page of the view, as drawn. */
interface PageCells {
  readonly page: number;
  readonly cells: readonly (readonly string[])[];
}

/** Which of Flink's live result views: the materialized table, or the changelog as it arrives. */
export type LiveView = 'table' | 'changelog';

/**
 * The REPL's `table` and `changelog` result modes, Flink's full-screen result views, on the terminal's
 * alternate screen (leaving gives the user's screen and prompt back as they were).
 * `table`: the changelog applied to a materialized table (+I/+U add a row, -U/-D remove an equal one), so
 * a running aggregate shows its current values rather than its history. `changelog`: every change as it
 * came, with its `op`, the newest followed; it keeps the latest MAX_CHANGELOG_ROWS.
 * The screen shows one page of rows cut to the terminal's width, under a status line with the refresh
 * interval, the page and the time of the last refresh; a resize redraws it for the new size. Keys, as
 * Flink's: Up/Down (W/S) select a row and Enter (O) shows it in full; Left/Right (A/D) scroll a wide
 * table; N/P or PgDn/PgUp page, F/Home the first page, L/End the last (following new rows), G asks
 * for a page number; `+` / `-` step the refresh interval, R refreshes now; Q, Esc or Ctrl-C leave,
 * cancelling a running query (which is then said). While the query runs, values that changed at the
 * last refresh show in bold.
 * A finished result stays on screen until left, as in Flink.
 * Without a keyboard (input not a terminal) the result is printed once it ends, whole.
 */
export async function printLiveTable(
  result: TableResult,
  columns: readonly TableauColumn[],
  io: ConsoleIO,
  options: TableauOptions,
  view: LiveView = 'table',
  maxTableRows = 1_000_000,
): Promise<void> {
  const changelog = view === 'changelog';
  const rows: LiveRows = changelog ? new ChangelogRows(MAX_CHANGELOG_ROWS) : new MaterializedTable(maxTableRows);
  const rowsIterator = result.collect();
  const renderOptions = { ...options, streaming: changelog };

  if (!io.onKeypress) {
    for await (const row of rowsIterator) rows.apply(row);
    io.out(TableauPrinter.render(columns, rows.slice(0, rows.size), renderOptions));
    return;
  }

  const screen = new FullScreen(io);
  let page = LAST;
  /** The selected row's index in `rows`, or -1. */
  let selected = -1;
  let offsetX = 0;
  let refresh = DEFAULT_REFRESH;
  /**
   * The row shown in full (held itself: rows arriving meanwhile may move it on the table), its number
   * when opened, and how far its lines are scrolled; undefined: the table shows.
   */
  let opened: { row: Row; number: number; total: number; scroll: number } | undefined;
  let ended = false;
  let dirty = false;
  let updated: Date | undefined;
  /**
   * The cells of the page shown at the last refresh and at the one before: a value that changed between
   * them shows in bold while the query runs, as in Flink's view.
   */
  let shownCells: PageCells | undefined;
  let beforeCells: PageCells | undefined;
  let snapshot = false;
  /** The page number being typed after G, as Flink's input view; undefined when not asked. */
  let pageInput: string | undefined;

  const pageSize = (): number => Math.max(1, screen.rows - CHROME_LINES - keyLines(screen.columns).length);
  const pages = (): number => Math.max(1, Math.ceil(rows.size / pageSize()));
  const shownPage = (): number => (page === LAST ? pages() - 1 : Math.min(page, pages() - 1));

  const title = (text: string): ScreenLine => ({ text: text.padStart(Math.floor((screen.columns + text.length) / 2)) });
  const statusLine = (middle: string): ScreenLine => {
    const width = screen.columns;
    const left = ` ${ended ? 'Table program finished.' : `Refresh: ${REFRESH_STEPS[refresh]![1]}`}`;
    // On a narrow screen the time of the last refresh goes first, then the middle is cut.
    const fits = left.length + middle.length + 30 <= width;
    const right = fits ? `Updated: ${updated === undefined ? 'unknown' : clock(updated)} ` : '';
    const before = Math.max(2, Math.floor((width - middle.length) / 2) - left.length);
    const line = left + ' '.repeat(before) + middle;
    return { text: line + ' '.repeat(Math.max(2, width - line.length - right.length)) + right, inverse: true };
  };

  const tableScreen = (): ScreenLine[] => {
    const size = pageSize();
    const shown = shownPage();
    const first = shown * size;
    const onPage = rows.slice(first, first + size);
    const text = onPage.length === 0 ? TableauPrinter.forStreaming(columns, renderOptions).header() : TableauPrinter.render(columns, onPage, renderOptions);
    // The table's own "N rows in set" line would count the page: the status line counts the result.
    const table = text.split('\n').filter((l) => l.startsWith('+') || l.startsWith('|'));
    const width = screen.columns;
    offsetX = Math.max(0, Math.min(offsetX, (table[0]?.length ?? 0) - width));
    const count = changelog ? `${rows.dropped + rows.size} changes${rows.dropped > 0 ? `, the latest ${rows.size} kept` : ''}` : `${rows.size} rows`;
    const lines: ScreenLine[] = [
      title(`SQL Query Result (${changelog ? 'Changelog' : 'Table'})`),
      statusLine(`Page: ${page === LAST ? 'Last' : shown + 1} of ${pages()}  (${count})`),
    ];
    // Cell boundaries from the top border, which no value can disturb.
    const bounds = [...(table[0] ?? '')].flatMap((ch, i) => (ch === '+' ? [i] : []));
    const cells = onPage.map((_, r) => bounds.slice(1).map((to, k) => columnSlice(table[3 + r]!, bounds[k]! + 1, to)));
    const before = !ended && beforeCells?.page === shown ? beforeCells.cells : undefined;
    if (snapshot) shownCells = { page: shown, cells };
    table.forEach((l, i) => {
      // Border, header and separator come first; the selected row is marked in its border and in inverse.
      const r = i - 3;
      const isSelected = r >= 0 && first + r === selected && r < onPage.length;
      const bold: (readonly [number, number])[] = [];
      if (before !== undefined && r >= 0 && r < onPage.length && !isSelected) {
        cells[r]!.forEach((cell, k) => {
          if (before[r]?.[k] !== cell) bold.push([bounds[k]! + 1, bounds[k + 1]!]);
        });
      }
      lines.push({ text: isSelected ? `>${l.slice(1)}` : l, offset: offsetX, inverse: isSelected, bold });
    });
    const keys = pageInput === undefined ? keyLines(width) : [`Enter page [1 to ${pages()}]: ${pageInput}`, 'Enter Go  Esc Cancel'];
    while (lines.length < screen.rows - keys.length) lines.push({ text: '' });
    for (const k of keys) lines.push({ text: k });
    return lines;
  };

  const rowScreen = (at: NonNullable<typeof opened>): ScreenLine[] => {
    const body = rowDetailLines(columns, at.row, changelog, options, screen.columns);
    const keys = keyLines(screen.columns, ['Up/Down Scroll', `any other key: back to the ${view}`]);
    const height = Math.max(1, screen.rows - 3 - keys.length);
    at.scroll = Math.max(0, Math.min(at.scroll, body.length - height));
    const lines: ScreenLine[] = [
      title('SQL Query Result (Row)'),
      statusLine(`Row ${at.number} of ${at.total}`),
      { text: '' },
      ...body.slice(at.scroll, at.scroll + height).map((text) => ({ text })),
    ];
    while (lines.length < screen.rows - keys.length) lines.push({ text: '' });
    for (const k of keys) lines.push({ text: k });
    return lines;
  };

  const draw = (): void => {
    selected = Math.min(selected, rows.size - 1);
    screen.draw(opened === undefined ? tableScreen() : rowScreen(opened));
  };
  const refreshNow = (): void => {
    dirty = false;
    updated = new Date();
    beforeCells = shownCells;
    snapshot = true;
    draw();
    snapshot = false;
  };

  let timer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    clearTimeout(timer);
    const ms = REFRESH_STEPS[refresh]![0];
    if (ended || !Number.isFinite(ms)) return;
    timer = setTimeout(() => {
      if (dirty) refreshNow();
      schedule();
    }, ms);
  };

  /** Selects row `index` and shows its page. */
  const select = (index: number): void => {
    if (rows.size === 0) return;
    selected = Math.max(0, Math.min(index, rows.size - 1));
    page = Math.floor(selected / pageSize());
  };
  const gotoPage = (target: number): void => {
    const from = shownPage();
    page = Math.max(0, Math.min(target, pages() - 1));
    if (selected >= 0) selected = Math.min(selected + (page - from) * pageSize(), rows.size - 1);
  };

  let leave: () => void = () => {};
  const left = new Promise<void>((resolve) => (leave = resolve));
  const onKey = (key: KeyPress): void => {
    const name = key.name;
    if ((key.ctrl && name === 'c') || (opened === undefined && pageInput === undefined && (name === 'q' || name === 'escape'))) {
      leave();
      return;
    }
    if (pageInput !== undefined) {
      const s = key.sequence ?? '';
      if (/^[0-9]$/.test(s)) pageInput += s;
      else if (name === 'backspace') pageInput = pageInput.slice(0, -1);
      else if (name === 'escape' || name === 'q') pageInput = undefined;
      else if (name === 'return' || name === 'enter') {
        const n = Number(pageInput);
        // Only a page that exists is taken, as in Flink; otherwise the number can be corrected.
        if (Number.isInteger(n) && n >= 1 && n <= pages()) {
          gotoPage(n - 1);
          pageInput = undefined;
        }
      }
      draw();
      return;
    }
    if (opened !== undefined) {
      if (name === 'up') opened.scroll--;
      else if (name === 'down') opened.scroll++;
      else opened = undefined;
      draw();
      return;
    }
    const shown = shownPage();
    if (name === 'return' || name === 'enter' || name === 'o') {
      // Nothing selected yet: the first row of the page, so a one-row result opens with one key.
      if (selected < 0 && rows.size > 0) select(shown * pageSize());
      const row = rows.at(selected);
      if (row !== undefined) opened = { row, number: rows.dropped + selected + 1, total: rows.dropped + rows.size, scroll: 0 };
    } else if (name === 'up' || name === 'w') select(selected < 0 ? Math.min(rows.size, (shown + 1) * pageSize()) - 1 : selected - 1);
    else if (name === 'down' || name === 's') select(selected < 0 ? shown * pageSize() : selected + 1);
    else if (name === 'left' || name === 'a') offsetX = Math.max(0, offsetX - SCROLL_STEP);
    else if (name === 'right' || name === 'd') offsetX += SCROLL_STEP;
    else if (key.sequence === '+') {
      refresh = Math.min(refresh + 1, REFRESH_STEPS.length - 1);
      schedule();
    } else if (key.sequence === '-') {
      refresh = Math.max(refresh - 1, 0);
      schedule();
    } else if (name === 'r' || name === 'f5') {
      refreshNow();
      return;
    } else if (name === 'n' || name === 'pagedown') gotoPage(shown + 1);
    else if (name === 'p' || name === 'pageup') gotoPage(shown - 1);
    else if (name === 'f' || name === 'home') gotoPage(0);
    else if (name === 'g') pageInput = '';
    else if (name === 'l' || name === 'end') {
      page = LAST;
      selected = -1;
    } else return;
    draw();
  };

  screen.enter();
  const stopKeys = io.onKeypress(onKey);
  const stopResize =
    io.onResize?.(() => {
      // Keep the selected row in sight on the new page size.
      if (selected >= 0 && page !== LAST) page = Math.floor(selected / pageSize());
      draw();
    }) ?? (() => {});
  let cancelled = false;
  try {
    draw();
    schedule();
    const consume = (async (): Promise<void> => {
      for await (const row of rowsIterator) {
        rows.apply(row);
        dirty = true;
      }
      ended = true;
      clearTimeout(timer);
      refreshNow();
    })();
    await Promise.race([left, consume]);
    if (!ended) {
      cancelled = true;
      await rowsIterator.close();
      await consume.catch(() => undefined);
    } else {
      await left;
    }
  } finally {
    clearTimeout(timer);
    stopResize();
    stopKeys();
    screen.leave();
  }
  if (cancelled) io.out('[INFO] Query cancelled.\n');
}

/** `HH:MM:SS.mmm`, local time, as Flink's status line. */
function clock(d: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}
