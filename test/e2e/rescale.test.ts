// Resuming a stateful job at another parallelism through the CLI (issue #12, key groups): a TUMBLE window
// COUNT/SUM per key over a datagen sequence, into csv files, run at parallelism 2, killed with SIGKILL once
// a checkpoint exists, resumed at parallelism 3, killed again, resumed at 1 until it ends. The committed
// windows must equal those of a run that was never interrupted, row for row.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../dist/bundle/bin.js', import.meta.url));
const N = 6_000;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function jobSql(dir: string, parallelism: number): string {
  return `SET 'parallelism.default' = '${parallelism}';
SET 'execution.checkpointing.interval' = '150 ms';
SET 'execution.checkpointing.dir' = '${join(dir, 'chk')}';
CREATE TEMPORARY TABLE numbers (
  n BIGINT,
  ts AS TO_TIMESTAMP_LTZ(n * 10, 3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'datagen', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '${N}',
  'rows-per-second' = '3000');
CREATE TEMPORARY TABLE windows (k BIGINT, window_start TIMESTAMP(3), cnt BIGINT, total BIGINT)
  WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'out')}', 'format' = 'csv');
INSERT INTO windows
SELECT n % 7, window_start, COUNT(*), SUM(n)
FROM TABLE(TUMBLE(TABLE numbers, DESCRIPTOR(ts), INTERVAL '1' SECOND))
GROUP BY n % 7, window_start, window_end;
`;
}

function committedRows(dir: string): string[] {
  const rows: string[] = [];
  const walk = (d: string): void => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name.startsWith('_')) continue;
      if (e.isDirectory()) walk(join(d, e.name));
      else rows.push(...readFileSync(join(d, e.name), 'utf8').split('\n').filter((l) => l !== ''));
    }
  };
  walk(dir);
  return rows.sort();
}

function hasCheckpoint(chk: string): boolean {
  if (!existsSync(chk)) return false;
  return readdirSync(chk).some((job) => readdirSync(join(chk, job)).some((c) => existsSync(join(chk, job, c, '_metadata'))));
}

/** Runs the CLI; with `killAfterCheckpoint`, SIGKILLs it that long after a new checkpoint appeared. */
async function run(dir: string, parallelism: number, resume: boolean, killAfterCheckpointMs?: number): Promise<'killed' | number> {
  writeFileSync(join(dir, 'job.sql'), jobSql(dir, parallelism));
  const args = [CLI, '-f', join(dir, 'job.sql'), ...(resume ? ['--resume', join(dir, 'chk')] : [])];
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  const exited = new Promise<number>((r) => child.once('exit', (code) => r(code ?? -1)));
  if (killAfterCheckpointMs === undefined) {
    const code = await exited;
    if (code !== 0) throw new Error(`sluice exited ${code}: ${stderr.slice(-2000)}`);
    return code;
  }
  const before = new Set(checkpointNames(join(dir, 'chk')));
  for (let waited = 0; waited < 20_000; waited += 25) {
    if (child.exitCode !== null) break;
    if (checkpointNames(join(dir, 'chk')).some((c) => !before.has(c))) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  await new Promise((r) => setTimeout(r, killAfterCheckpointMs));
  if (child.exitCode !== null) throw new Error(`sluice ended before it could be killed: ${stderr.slice(-2000)}`);
  child.kill('SIGKILL');
  await exited;
  return 'killed';
}

function checkpointNames(chk: string): string[] {
  if (!existsSync(chk)) return [];
  return readdirSync(chk).flatMap((job) => readdirSync(join(chk, job)).filter((c) => existsSync(join(chk, job, c, '_metadata'))).map((c) => `${job}/${c}`));
}

describe.skipIf(!existsSync(CLI))('resume at another parallelism (CLI)', () => {
  it('a TUMBLE COUNT/SUM job killed at parallelism 2, resumed at 3, killed, resumed at 1 commits what an uninterrupted run does', async () => {
    const reference = mkdtempSync(join(tmpdir(), 'sluice-rescale-ref-'));
    const trial = mkdtempSync(join(tmpdir(), 'sluice-rescale-'));
    dirs.push(reference, trial);
    const [, killedAt2] = await Promise.all([run(reference, 2, false), run(trial, 2, false, 400)]);
    expect(killedAt2).toBe('killed');
    expect(hasCheckpoint(join(trial, 'chk'))).toBe(true);
    expect(await run(trial, 3, true, 400)).toBe('killed');
    expect(await run(trial, 1, true)).toBe(0);
    const want = committedRows(join(reference, 'out'));
    // The reference holds every (key, window) of the input: rows 10 ms apart, 1 s windows, 7 keys.
    const pairs = new Set<string>();
    for (let n = 1; n <= N; n++) pairs.add(`${n % 7}/${Math.floor((n * 10) / 1000)}`);
    expect(want).toHaveLength(pairs.size);
    expect(committedRows(join(trial, 'out'))).toEqual(want);
  }, 120_000);
});
