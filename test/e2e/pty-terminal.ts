// A pseudo-terminal running the built CLI, for tests of the interactive client (local or through --endpoint).
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { ScreenEmulator } from './screen-emulator.js';

/**
 * Drives the built REPL through a real pseudo-terminal (util-linux `script` allocates one), typing
 * keystrokes and reading the screen, as a person at a terminal would.
 */
const bin = join(import.meta.dirname, '..', '..', 'dist', 'bundle', 'bin.js');

export class Terminal {
  /** Everything written, escape sequences taken out: a log to search for what was shown, in order. */
  screen = '';
  /** Everything written, escape sequences and all. */
  raw = '';
  /** What the terminal shows now (given a size), for full-screen views and what is left after them. */
  readonly display: ScreenEmulator | undefined;
  /** The pseudo-terminal's device, to resize it. */
  private device: string | undefined;
  private readonly child: ChildProcessWithoutNullStreams;

  /**
   * `size`: the terminal's columns and rows (`stty`); without it the pseudo-terminal reports none.
   * `args`: the CLI's arguments (default: a catalog folder in `dir`).
   */
  constructor(dir: string, size?: { columns: number; rows: number }, args: readonly string[] = ['--catalog-dir', join(dir, 'cat')]) {
    const stty = size === undefined ? '' : `tty; stty cols ${size.columns} rows ${size.rows}; `;
    this.display = size === undefined ? undefined : new ScreenEmulator(size.columns, size.rows);
    const cmd = `${stty}${[process.execPath, bin, ...args].map((a) => JSON.stringify(a)).join(' ')}`;
    this.child = spawn('script', ['-qfc', cmd, '/dev/null'], {
      cwd: dir,
      env: { ...process.env, SLUICE_HISTORY_FILE: join(dir, 'history'), TERM: 'xterm', COLUMNS: '200' },
    });
    // Decoded as a stream, so a character split between two reads stays whole.
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => {
      if (this.device === undefined && size !== undefined) this.device = /\/dev\/pts\/\d+/.exec(this.screen + text)?.[0];
      this.raw += text;
      this.display?.write(text);
      this.screen += text.replace(/\x1b\[[?0-9;]*[A-Za-z]/g, '');
    });
  }

  /** Resizes the terminal, as dragging its window does: the program gets SIGWINCH and the new size. */
  resize(columns: number, rows: number): void {
    if (this.device === undefined || this.display === undefined) throw new Error('resize needs a Terminal made with a size');
    this.display.resize(columns, rows);
    execFileSync('stty', ['-F', this.device, 'cols', String(columns), 'rows', String(rows)]);
  }

  /**
   * Waits until the display (see `display`) holds a line matching `text`; returns the display's lines.
   * A frame reaches the pseudo-terminal in pieces: its status line (near the top) can show before the rows
   * under it are redrawn. So a match is returned once the display has been still for 150 ms, or after a
   * second of matches if it keeps changing (a view refreshing every 100 ms).
   */
  async waitForDisplay(text: string | RegExp, timeoutMs = 45_000): Promise<string[]> {
    const display = this.display;
    if (display === undefined) throw new Error('waitForDisplay needs a Terminal made with a size');
    const deadline = Date.now() + timeoutMs;
    const matches = (lines: string[]): boolean => lines.some((l) => (typeof text === 'string' ? l.includes(text) : text.test(l)));
    let firstMatch: number | undefined;
    for (;;) {
      const lines = display.text();
      if (matches(lines)) {
        firstMatch ??= Date.now();
        await new Promise((r) => setTimeout(r, 150));
        const later = display.text();
        if (matches(later) && (later.join('\n') === lines.join('\n') || Date.now() - firstMatch > 1_000)) return later;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(text)} on the display:\n${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  type(keys: string): void {
    this.child.stdin.write(keys);
  }

  /** Waits until the screen, after `from`, contains `text`; returns the index after it. */
  async waitFor(text: string | RegExp, from = 0, timeoutMs = 45_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rest = this.screen.slice(from);
      const m = typeof text === 'string' ? rest.indexOf(text) : rest.search(text);
      if (m >= 0) return from + m + (typeof text === 'string' ? text.length : 1);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(text)}; screen:\n${this.screen}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
