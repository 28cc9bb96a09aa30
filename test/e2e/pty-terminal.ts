// A pseudo-terminal running the built CLI, for tests of the interactive client (local or through --endpoint).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

/**
 * Drives the built REPL through a real pseudo-terminal (util-linux `script` allocates one), typing
 * keystrokes and reading the screen, as a person at a terminal would.
 */
const bin = join(import.meta.dirname, '..', '..', 'dist', 'bundle', 'bin.js');

export class Terminal {
  screen = '';
  private readonly child: ChildProcessWithoutNullStreams;

  /**
   * `size`: the terminal's columns and rows (`stty`); without it the pseudo-terminal reports none.
   * `args`: the CLI's arguments (default: a catalog folder in `dir`).
   */
  constructor(dir: string, size?: { columns: number; rows: number }, args: readonly string[] = ['--catalog-dir', join(dir, 'cat')]) {
    const stty = size === undefined ? '' : `stty cols ${size.columns} rows ${size.rows}; `;
    const cmd = `${stty}${[process.execPath, bin, ...args].map((a) => JSON.stringify(a)).join(' ')}`;
    this.child = spawn('script', ['-qfc', cmd, '/dev/null'], {
      cwd: dir,
      env: { ...process.env, SLUICE_HISTORY_FILE: join(dir, 'history'), TERM: 'xterm', COLUMNS: '200' },
    });
    this.child.stdout.on('data', (d: Buffer) => (this.screen += d.toString('utf8').replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')));
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
