import type { ConsoleIO } from '../console-io.js';
import { columnSlice, displayWidth } from './display-width.js';

/** xterm's alternate screen buffer (saves the cursor, as `smcup`), and the cursor hidden while it shows. */
const ENTER = '\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J';
/** Shows the cursor and gives back the user's screen, their prompt and scrollback as they were. */
const LEAVE = '\x1b[?25h\x1b[?1049l';
export const INVERSE = '\x1b[7m';
export const PLAIN = '\x1b[0m';
const BOLD = '\x1b[1m';
const NOT_BOLD = '\x1b[22m';

/** What a terminal that reports no size is taken to be (a pipe under `script`, an old emulator). */
const DEFAULT_COLUMNS = 80;
const DEFAULT_ROWS = 24;

/** One line of a full-screen view. */
export interface ScreenLine {
  readonly text: string;
  /** The column of `text` the screen starts at (a table scrolled sideways). */
  readonly offset?: number;
  /** In inverse video: a status line, the selected row. */
  readonly inverse?: boolean;
  /** Parts of `text` in bold, as [from, to) columns of `text`: values that changed at the last refresh. */
  readonly bold?: readonly (readonly [number, number])[];
}

/**
 * A view that owns the whole terminal, as Flink's result views do: drawn on the alternate screen buffer,
 * so that leaving it brings back the user's screen and prompt untouched. Each draw repaints every line
 * from the top, cut to the terminal's width (a line never wraps and pushes the layout down), so a
 * resize only needs a draw with the new size.
 */
export class FullScreen {
  private open = false;

  constructor(private readonly io: ConsoleIO) {}

  get columns(): number {
    const c = this.io.columns;
    return c !== undefined && c > 0 ? c : DEFAULT_COLUMNS;
  }

  get rows(): number {
    const r = this.io.rows;
    return r !== undefined && r > 0 ? r : DEFAULT_ROWS;
  }

  enter(): void {
    if (this.open) return;
    this.open = true;
    this.io.out(ENTER);
  }

  /** Paints `lines` from the top; lines past the screen's height are not drawn. */
  draw(lines: readonly ScreenLine[]): void {
    if (!this.open) return;
    const width = this.columns;
    const shown = lines.slice(0, this.rows).map((l) => {
      const offset = l.offset ?? 0;
      const plain = columnSlice(l.text, offset, offset + width);
      // Bold spans are in columns of `l.text`; pieces are cut by column so wide characters count twice.
      const spans = [...(l.bold ?? [])].map(([a, b]) => [Math.max(0, a - offset), Math.min(width, b - offset)] as const).filter(([a, b]) => a < b);
      let text = plain;
      if (spans.length > 0) {
        text = '';
        let at = 0;
        for (const [a, b] of spans.sort((x, y) => x[0] - y[0])) {
          text += `${columnSlice(plain, at, a)}${BOLD}${columnSlice(plain, a, b)}${NOT_BOLD}`;
          at = b;
        }
        text += columnSlice(plain, at);
      }
      const visible = displayWidth(plain);
      if (l.inverse === true) return `${INVERSE}${text}${' '.repeat(Math.max(0, width - visible))}${PLAIN}`;
      // Erasing the rest of a full line would take its last character: the cursor stays on the last column.
      return visible < width ? `${text}\x1b[K` : text;
    });
    // No newline after the last line: on the bottom row it would scroll the screen by one.
    this.io.out(`\x1b[H${shown.join('\r\n')}\x1b[J`);
  }

  leave(): void {
    if (!this.open) return;
    this.open = false;
    this.io.out(LEAVE);
  }
}
