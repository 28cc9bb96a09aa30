import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Drives the built REPL through a real pseudo-terminal (util-linux `script` allocates one), typing
 * keystrokes and reading the screen, as a person at a terminal would.
 */
const bin = join(import.meta.dirname, '..', '..', 'dist', 'bundle', 'bin.js');

class Terminal {
  screen = '';
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(dir: string) {
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} --catalog-dir ${JSON.stringify(join(dir, 'cat'))}`;
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

let term: Terminal | undefined;
afterEach(() => term?.kill());

describe('interactive client', () => {
  it('completes, runs statements, keeps its state after errors, stops queries on Ctrl-C, and quits', async () => {
    term = new Terminal(mkdtempSync(join(tmpdir(), 'sluice-repl-')));
    let at = await term.waitFor('Sluice SQL> ');

    term.type('SHOW CURR\t');
    at = await term.waitFor('SHOW CURRENT', at);
    term.type(' CATALOG;\r');
    at = await term.waitFor(/\|\s+default_catalog \|/, at);
    at = await term.waitFor('Sluice SQL> ', at);

    // Continuation lines until ';', then the option keys of the connector inside WITH (...).
    term.type("CREATE TEMPORARY TABLE samples (n BIGINT)\r");
    at = await term.waitFor('> ', at);
    term.type("WITH ('connector' = 'datagen', 'rows-per-sec\t");
    at = await term.waitFor("'rows-per-second'", at);
    term.type(" = '50');\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);

    // An error keeps the session: the table is still there afterwards.
    term.type('SELECT nope FROM samples;\r');
    at = await term.waitFor("Column 'nope' not found", at);
    term.type('SHOW TABLES;\r');
    at = await term.waitFor('|    samples |', at);

    // Table names complete too.
    term.type('DESCRIBE sampl\t');
    at = await term.waitFor('DESCRIBE samples', at);
    term.type(';\r');
    at = await term.waitFor('| BIGINT |', at);

    // An unbounded query runs until Ctrl-C, which stops it and gives the prompt back.
    term.type("SET 'sql-client.execution.result-mode' = 'tableau';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('SELECT n FROM samples;\r');
    at = await term.waitFor('| +I |', at);
    term.type('\x03');
    at = await term.waitFor('[INFO] Query stopped.', at);
    at = await term.waitFor('Sluice SQL> ', at);

    // Table mode: a live, paginated view of the materialized result; N/P page, Q leaves.
    term.type("SET 'sql-client.execution.result-mode' = 'table';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    const values = Array.from({ length: 40 }, (_, i) => `(${i + 1})`).join(', ');
    term.type(`SELECT v FROM (VALUES ${values}) AS t(v);\r`);
    at = await term.waitFor(/Page (\d+) of \1 \(40 rows, finished\)/, at);
    term.type('f');
    at = await term.waitFor(/Page 1 of \d+ \(40 rows, finished\)/, at);
    term.type('n');
    at = await term.waitFor(/Page 2 of \d+ \(40 rows, finished\)/, at);
    term.type('q');
    at = await term.waitFor('Sluice SQL> ', at);

    term.type('HELP;\r');
    at = await term.waitFor('QUIT/EXIT', at);
    term.type('QUIT;\r');
    await term.waitFor('Shutting down the session...', at);
  }, 180_000);
});
