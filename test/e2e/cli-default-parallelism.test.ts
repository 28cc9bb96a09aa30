// `sluice -f` without `SET 'parallelism.default'` (issue #19 item 1): a large job spreads over every core, on
// worker threads, and gives the same rows as at parallelism 1; a small job stays on one thread.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'dist', 'bundle', 'bin.js');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'sluice-default-p-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nexmark = (events: number): string => `CREATE TEMPORARY TABLE nexmark (
  event_type INT,
  person ROW<id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING, state STRING, dateTime TIMESTAMP(3), extra STRING>,
  auction ROW<id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING>,
  bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP(3), extra STRING>
) WITH ('connector' = 'nexmark', 'events.num' = '${events}', 'rate-limited' = 'false', 'base-time' = '1767225600000', 'seed' = '7');`;

/** Batch mode prints each group's final row once; the print sink prefixes a line with its subtask when it runs wide. */
async function groups(events: number, settings: string[]): Promise<{ lines: string[]; stderr: string }> {
  const file = join(dir, `job-${events}-${settings.length}.sql`);
  writeFileSync(
    file,
    [
      "SET 'execution.runtime-mode' = 'batch';",
      "SET 'table.dml-sync' = 'true';",
      ...settings,
      nexmark(events),
      "CREATE TEMPORARY TABLE out_t (g BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'print');",
      'INSERT INTO out_t SELECT MOD(bid.auction, 4), COUNT(*), SUM(bid.price) FROM nexmark WHERE event_type = 2 GROUP BY MOD(bid.auction, 4);',
      '',
    ].join('\n'),
  );
  const { stdout, stderr } = await run(process.execPath, [bin, '-f', file], { cwd: dir, timeout: 120_000 });
  return { lines: stdout.split('\n').filter((l) => /\+I\[/.test(l)), stderr };
}

const withoutPrefix = (lines: string[]): string[] => lines.map((l) => l.replace(/^\d+> /, '')).sort();

describe('sluice -f with parallelism.default not set', () => {
  it.skipIf(availableParallelism() < 2)('runs a million-event job on every core, with the rows of parallelism 1', async () => {
    const wide = await groups(1_000_000, []);
    const narrow = await groups(1_000_000, ["SET 'parallelism.default' = '1';"]);
    expect(wide.stderr).not.toMatch(/WARNING|ERROR/);
    expect(narrow.lines).toHaveLength(4);
    expect(narrow.lines.every((l) => l.startsWith('+I['))).toBe(true);
    // Every line names one of the cores' subtasks: the aggregate and the sink ran at parallelism = cores.
    const subtasks = new Set(wide.lines.map((l) => /^(\d+)> /.exec(l)?.[1]));
    expect([...subtasks].every((s) => s !== undefined && Number(s) >= 1 && Number(s) <= availableParallelism())).toBe(true);
    expect(withoutPrefix(wide.lines)).toEqual(withoutPrefix(narrow.lines));
  }, 180_000);

  it('runs a small job on one thread: no subtask prefix', async () => {
    const small = await groups(2000, []);
    expect(small.lines.length).toBeGreaterThan(0);
    expect(small.lines.every((l) => l.startsWith('+I['))).toBe(true);
  }, 60_000);
});
