import { charWidth } from '../../src/cli/render/display-width.js';

/**
 * Just enough of an xterm to know what a person would see: the cursor movements, erasing and the
 * alternate screen buffer that Node's readline and Sluice's full-screen views use. Colours and other
 * attributes are ignored; lines scrolled off the top of the main screen are dropped.
 */
export class ScreenEmulator {
  private main: string[][];
  private alt: string[][] | undefined;
  private row = 0;
  private col = 0;
  private saved: { row: number; col: number } | undefined;
  private pendingWrap = false;
  private partial = '';

  constructor(
    private columns: number,
    private rows: number,
  ) {
    this.main = blank(columns, rows);
  }

  /** Whether the alternate screen buffer shows. */
  get onAlternateScreen(): boolean {
    return this.alt !== undefined;
  }

  /** The screen as lines of text, trailing blanks trimmed. */
  text(): string[] {
    return this.buffer.map((l) => l.join('').trimEnd());
  }

  resize(columns: number, rows: number): void {
    const fit = (b: string[][]): string[][] => {
      const out = blank(columns, rows);
      const from = Math.max(0, b.length - rows);
      for (let r = 0; r < Math.min(rows, b.length); r++) for (let c = 0; c < Math.min(columns, b[r + from]!.length); c++) out[r]![c] = b[r + from]![c]!;
      return out;
    };
    this.main = fit(this.main);
    if (this.alt) this.alt = fit(this.alt);
    this.columns = columns;
    this.rows = rows;
    this.row = Math.min(this.row, rows - 1);
    this.col = Math.min(this.col, columns - 1);
  }

  write(data: string): void {
    const s = this.partial + data;
    this.partial = '';
    let i = 0;
    while (i < s.length) {
      const ch = String.fromCodePoint(s.codePointAt(i)!);
      if (ch === '\x1b') {
        if (i + 1 >= s.length) {
          this.partial = s.slice(i);
          return;
        }
        if (s[i + 1] === '[') {
          const m = /^\x1b\[([?]?)([0-9;]*)([@-~])/.exec(s.slice(i));
          if (m === null) {
            this.partial = s.slice(i);
            return;
          }
          this.csi(m[1]!, m[2]!, m[3]!);
          i += m[0].length;
        } else if (s[i + 1] === ']') {
          // An operating-system command (a window title): up to BEL or ST.
          const end = s.slice(i).search(/\x07|\x1b\\/);
          if (end < 0) {
            this.partial = s.slice(i);
            return;
          }
          i += end + (s[i + end] === '\x07' ? 1 : 2);
        } else i += 2;
        continue;
      }
      i += ch.length;
      if (ch === '\r') {
        this.col = 0;
        this.pendingWrap = false;
      } else if (ch === '\n') this.lineFeed();
      else if (ch === '\b') this.col = Math.max(0, this.col - 1);
      else if (ch === '\t') this.col = Math.min(this.columns - 1, (Math.floor(this.col / 8) + 1) * 8);
      else if (ch >= ' ') this.put(ch);
    }
  }

  private get buffer(): string[][] {
    return this.alt ?? this.main;
  }

  /** A wide character (CJK) takes two cells: itself and an empty one, so the line's text reads right. */
  private put(ch: string): void {
    const wide = charWidth(ch.codePointAt(0)!) === 2;
    if (this.pendingWrap || (wide && this.col === this.columns - 1)) {
      this.col = 0;
      this.lineFeed();
    }
    this.buffer[this.row]![this.col] = ch;
    if (wide) this.buffer[this.row]![++this.col] = '';
    if (this.col === this.columns - 1) this.pendingWrap = true;
    else this.col++;
  }

  private lineFeed(): void {
    this.pendingWrap = false;
    if (this.row < this.rows - 1) this.row++;
    else {
      this.buffer.shift();
      this.buffer.push(Array<string>(this.columns).fill(' '));
    }
  }

  private csi(priv: string, params: string, final: string): void {
    const nums = params === '' ? [] : params.split(';').map((p) => (p === '' ? 0 : Number(p)));
    const n = nums[0] ?? 0;
    const one = Math.max(1, n);
    if (priv === '?') {
      if (params === '1049' && final === 'h' && this.alt === undefined) {
        this.saved = { row: this.row, col: this.col };
        this.alt = blank(this.columns, this.rows);
      } else if (params === '1049' && final === 'l' && this.alt !== undefined) {
        this.alt = undefined;
        if (this.saved) ({ row: this.row, col: this.col } = this.saved);
      }
      return;
    }
    this.pendingWrap = false;
    const b = this.buffer;
    switch (final) {
      case 'A':
        this.row = Math.max(0, this.row - one);
        break;
      case 'B':
        this.row = Math.min(this.rows - 1, this.row + one);
        break;
      case 'C':
        this.col = Math.min(this.columns - 1, this.col + one);
        break;
      case 'D':
        this.col = Math.max(0, this.col - one);
        break;
      case 'G':
        this.col = Math.min(this.columns - 1, one - 1);
        break;
      case 'H':
      case 'f':
        this.row = Math.min(this.rows - 1, Math.max(1, nums[0] ?? 1) - 1);
        this.col = Math.min(this.columns - 1, Math.max(1, nums[1] ?? 1) - 1);
        break;
      case 'J':
        if (n === 0) {
          b[this.row]!.fill(' ', this.col);
          for (let r = this.row + 1; r < this.rows; r++) b[r]!.fill(' ');
        } else if (n === 1) {
          for (let r = 0; r < this.row; r++) b[r]!.fill(' ');
          b[this.row]!.fill(' ', 0, this.col + 1);
        } else for (const l of b) l.fill(' ');
        break;
      case 'K':
        if (n === 0) b[this.row]!.fill(' ', this.col);
        else if (n === 1) b[this.row]!.fill(' ', 0, this.col + 1);
        else b[this.row]!.fill(' ');
        break;
      default:
      // Attributes (m) and modes this client never relies on.
    }
  }
}

function blank(columns: number, rows: number): string[][] {
  return Array.from({ length: rows }, () => Array<string>(columns).fill(' '));
}
