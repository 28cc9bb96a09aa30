// Kill-and-resume harness for crash trials through the built CLI (issue #12 item 6).
//
// A trial runs one SQL job twice: once without failures (the reference), once SIGKILLed at seeded random
// moments and resumed with `--resume <checkpoint root>` until a run ends by itself. It then compares the
// COMMITTED output of both exactly, as multisets of rows. Append-only results go to the filesystem sink as
// csv (one line per row); updating results go to the filesystem sink as debezium-json, whose change
// records are materialized here into the final table (+I/+U add a row, -U/-D remove one).
//
// This file imports nothing from vitest: bench/crash-trials.mjs bundles it and runs it outside a test.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = process.env.SLUICE_CLI ?? fileURLToPath(new URL('../../../dist/bundle/bin.js', import.meta.url));

/** False (with a warning) when the CLI is not built; in CI a missing build is an error, never a skip. */
export function cliAvailable(what: string): boolean {
  if (existsSync(CLI)) return true;
  if (process.env.CI) throw new Error(`${CLI} is missing; CI must run 'npm run build' before the tests.`);
  console.warn(`SKIPPING ${what}: ${CLI} is missing (run 'npm run build').`);
  return false;
}

/** One job under trial: sources, the sink's columns and the query written into it. */
export interface CrashJob {
  readonly name: string;
  /** CREATE TEMPORARY TABLE / VIEW statements of the sources (each ending with ';'); `$DIR` is the job's directory. */
  readonly sources: string;
  /** Input files to write into the job's directory first (path relative to it -> content). */
  readonly files?: Readonly<Record<string, string>>;
  /** Column list of the sink table, e.g. `k BIGINT, c BIGINT, s BIGINT`. */
  readonly sinkColumns: string;
  /** The SELECT whose result is inserted into the sink. */
  readonly query: string;
  /**
   * 'append': filesystem csv, every committed line is a row. 'changelog': filesystem debezium-json,
   * materialized. Or any other sink that can tell its committed (materialized) output.
   */
  readonly output: 'append' | 'changelog' | CrashSink;
  /** Extra `SET` statements (e.g. a state TTL), without the checkpoint settings the harness adds. */
  readonly settings?: readonly string[];
}

/** A sink other than the filesystem's, e.g. upsert-kafka (test/integration/kafka). */
export interface CrashSink {
  /** CREATE TEMPORARY TABLE crash_sink (<columns>) WITH (...) writing this job directory's output. */
  ddl(dir: string, columns: string): string;
  /** Prepares the output of a fresh job directory (e.g. creates its topic). */
  prepare?(dir: string): Promise<void>;
  /** The committed output of a job directory, materialized, as a multiset of rows. */
  read(dir: string): Promise<Multiset>;
}

export interface TrialOptions {
  /** Kills to perform; rounds of fresh jobs run until this many happened. */
  readonly kills: number;
  readonly seed: number;
  readonly checkpointIntervalMs?: number;
  /** Keep the job directories (for debugging). */
  readonly keepDirs?: boolean;
  /** Kill delays range over this many ms until the failure-free run measured a whole run (default 3000). */
  readonly spanMs?: number;
  /** Aborts a single run that takes longer than this (it is then a failed trial). */
  readonly runTimeoutMs?: number;
}

/** Rows as the sink renders them, with how often each occurs. */
export type Multiset = Map<string, number>;

export interface TrialResult {
  readonly job: string;
  readonly seed: number;
  readonly kills: number;
  readonly rounds: number;
  /** Rows the killed-and-resumed job committed more often than the reference (duplicates or wrong values). */
  readonly extra: readonly string[];
  /** Rows of the reference the killed-and-resumed job lost (missing rows or wrong values). */
  readonly missing: readonly string[];
  /** Append-only only: rows committed after some kill that the reference never holds that often. */
  readonly extraAfterKill: readonly string[];
  /** Changelog only: rows retracted more often than inserted (a retraction of something never committed). */
  readonly negative: readonly string[];
  readonly referenceRows: number;
  /** What the failure-free run committed. */
  readonly reference: Multiset;
  readonly log: readonly string[];
}

/** Small deterministic PRNG so a failing run can be replayed with its seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Every visible (committed) file below `dir`; in-progress / pending files start with '.', metadata with '_'. */
export function committedFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name.startsWith('_')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...committedFiles(p));
    else out.push(p);
  }
  return out;
}

/** Files below `dir` whose name starts with '.' (not committed: in-progress or pending). */
export function hiddenFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...hiddenFiles(p));
    else if (e.name.startsWith('.')) out.push(p);
  }
  return out;
}

/** True when some job directory under the checkpoint root holds a complete checkpoint (chk-N/_metadata). */
export function hasCompleteCheckpoint(root: string): boolean {
  if (!existsSync(root)) return false;
  for (const job of readdirSync(root)) {
    const jobDir = join(root, job);
    let entries: string[];
    try {
      entries = readdirSync(jobDir);
    } catch {
      continue;
    }
    for (const chk of entries) if (chk.startsWith('chk-') && existsSync(join(jobDir, chk, '_metadata'))) return true;
  }
  return false;
}

function lines(dir: string): string[] {
  const out: string[] = [];
  for (const f of committedFiles(dir)) for (const l of readFileSync(f, 'utf8').split('\n')) if (l !== '') out.push(l);
  return out;
}

function add(m: Multiset, row: string, by: number): void {
  const n = (m.get(row) ?? 0) + by;
  if (n === 0) m.delete(row);
  else m.set(row, n);
}

/** Committed csv lines as a multiset. */
export function appendOutput(dir: string): Multiset {
  const m: Multiset = new Map();
  for (const l of lines(dir)) add(m, l, 1);
  return m;
}

interface DebeziumRecord {
  readonly before: Record<string, unknown> | null;
  readonly after: Record<string, unknown> | null;
  readonly op: string;
}

/**
 * The table a committed debezium-json changelog materializes to: the net count of every row. Part files
 * may be read in any order because only the sum of +1/-1 per row matters; a negative count means a row
 * was retracted more often than it was inserted.
 */
export function materializedOutput(dir: string): Multiset {
  const m: Multiset = new Map();
  for (const l of lines(dir)) {
    const r = JSON.parse(l) as DebeziumRecord;
    if (r.before) add(m, JSON.stringify(r.before), -1);
    if (r.after) add(m, JSON.stringify(r.after), 1);
  }
  return m;
}

/** Rows `actual` holds more often than `expected`, each repeated by the surplus. */
export function surplus(expected: Multiset, actual: Multiset): string[] {
  const out: string[] = [];
  for (const [row, n] of actual) {
    const over = n - Math.max(0, expected.get(row) ?? 0);
    for (let i = 0; i < over; i++) out.push(row);
  }
  return out;
}

export function size(m: Multiset): number {
  let n = 0;
  for (const c of m.values()) n += Math.max(0, c);
  return n;
}

/** Writes the job's input files and returns the job file: checkpoint settings, the job's settings, sources, the sink and the INSERT. */
export function jobSql(job: CrashJob, dir: string, checkpointIntervalMs: number): string {
  for (const [path, content] of Object.entries(job.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return [
    `SET 'execution.checkpointing.interval' = '${checkpointIntervalMs} ms';`,
    `SET 'execution.checkpointing.dir' = '${join(dir, 'chk')}';`,
    ...(job.settings ?? []).map((s) => `${s.trim().replace(/;$/, '')};`),
    job.sources.trim().replaceAll('$DIR', dir),
    typeof job.output === 'object'
      ? `${job.output.ddl(dir, job.sinkColumns).trim().replace(/;$/, '')};`
      : `CREATE TEMPORARY TABLE crash_sink (${job.sinkColumns}) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'out')}', 'format' = '${job.output === 'append' ? 'csv' : 'debezium-json'}');`,
    `INSERT INTO crash_sink ${job.query.trim().replace(/;$/, '')};`,
    '',
  ].join('\n');
}

/** A running CLI process with its output so far. */
export interface CliRun {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | string>;
  /** Resolves when the CLI printed the job id (or exited). */
  readonly submitted: Promise<void>;
}

export function startCli(args: readonly string[], cwd: string): CliRun {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let markSubmitted: () => void = () => {};
  const run: CliRun = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1))),
    submitted: new Promise<void>((resolve) => (markSubmitted = resolve)),
  };
  child.stdout?.on('data', (d: Buffer) => {
    run.stdout += d.toString();
    if (run.stdout.includes('Job ID:')) markSubmitted();
  });
  child.stderr?.on('data', (d: Buffer) => (run.stderr += d.toString()));
  void run.exited.then(() => markSubmitted());
  return run;
}

/** The tail of what a run printed: the CLI reports a failed statement on stdout, crashes on stderr. */
function outputOf(run: CliRun): string {
  return `stdout: ${run.stdout.slice(-1500)}\nstderr: ${run.stderr.slice(-1500)}`;
}

const alive = (run: CliRun): boolean => run.child.exitCode === null && run.child.signalCode === null;

/** Fails with the run's stderr when a run ended with an error. */
export class RunFailed extends Error {}

function newDir(label: string): string {
  const base = process.env.CRASH_TMP ?? tmpdir();
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `sluice-crash-${label.replace(/[^a-z0-9]+/gi, '-')}-`));
}

function cliArgs(dir: string, resume: boolean): string[] {
  const chk = join(dir, 'chk');
  return ['--catalog-dir', join(dir, 'catalog'), '-f', join(dir, 'job.sql'), ...(resume ? ['--resume', chk] : [])];
}

async function runToEnd(dir: string, resume: boolean, timeoutMs: number): Promise<{ code: number | string; ms: number; output: string }> {
  const started = Date.now();
  const run = startCli(cliArgs(dir, resume), dir);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, ms: Date.now() - started, output: outputOf(run) };
}

async function output(job: CrashJob, dir: string): Promise<Multiset> {
  if (typeof job.output === 'object') return job.output.read(dir);
  return job.output === 'append' ? appendOutput(join(dir, 'out')) : materializedOutput(join(dir, 'out'));
}

async function prepare(job: CrashJob, dir: string, interval: number): Promise<void> {
  writeFileSync(join(dir, 'job.sql'), jobSql(job, dir, interval));
  if (typeof job.output === 'object') await job.output.prepare?.(dir);
}

/** Runs the job once without failures; its committed output is what every trial must reproduce. */
export async function referenceRun(job: CrashJob, opts: Pick<TrialOptions, 'checkpointIntervalMs' | 'keepDirs' | 'runTimeoutMs'> = {}): Promise<{ rows: Multiset; ms: number }> {
  const dir = newDir(`${job.name}-ref`);
  try {
    await prepare(job, dir, opts.checkpointIntervalMs ?? 200);
    const r = await runToEnd(dir, false, opts.runTimeoutMs ?? 90_000);
    if (r.code !== 0) throw new RunFailed(`${job.name}: the failure-free run exited with ${r.code}\n${r.output}`);
    return { rows: await output(job, dir), ms: r.ms };
  } finally {
    if (!opts.keepDirs) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs fresh copies of the job, SIGKILLing each copy at seeded random moments and resuming it until a run
 * ends by itself, until `opts.kills` kills happened; compares every copy's committed output with the
 * reference. The first kill of a copy waits for a completed checkpoint (so the resume restores state);
 * later ones fall anywhere from startup (before or during restore) to past the end of the input.
 */
export async function crashTrial(job: CrashJob, opts: TrialOptions): Promise<TrialResult> {
  const interval = opts.checkpointIntervalMs ?? 200;
  const runTimeout = opts.runTimeoutMs ?? 90_000;
  const random = mulberry32(opts.seed);
  const log: string[] = [`${job.name}: seed ${opts.seed} (replay with CRASH_SEED=${opts.seed})`];
  // The failure-free run goes on beside the first copy; until it ends, kill delays range over a guess.
  let span = opts.spanMs ?? 3000;
  const referenceDone = referenceRun(job, { checkpointIntervalMs: interval, keepDirs: opts.keepDirs, runTimeoutMs: runTimeout }).then((r) => {
    // How long a whole run takes from start to end: kill delays range over it.
    span = Math.max(1500, r.ms);
    log.push(`reference: ${size(r.rows)} rows in ${r.ms} ms`);
    return r;
  });
  // A failed reference fails the trial at once, not only when the killed copies are done.
  let referenceError: unknown;
  referenceDone.catch((e: unknown) => (referenceError = e));
  const referenceRows = async (): Promise<Multiset> => (await referenceDone).rows;
  let kills = 0;
  let rounds = 0;
  const extra: string[] = [];
  const missing: string[] = [];
  const extraAfterKill: string[] = [];
  const negative: string[] = [];
  while (kills < opts.kills) {
    if (rounds >= 3 * opts.kills + 3) {
      throw new RunFailed(`${log.join('\n')}\n${job.name}: ${rounds} copies ended before ${opts.kills} kills; the job ends too soon after its first checkpoint`);
    }
    const dir = newDir(job.name);
    rounds++;
    log.push(`round ${rounds} in ${dir}`);
    try {
      await prepare(job, dir, interval);
      const chk = join(dir, 'chk');
      for (let run = 0; ; run++) {
        if (referenceError) throw referenceError;
        if (run > opts.kills + 40) throw new RunFailed(`${log.join('\n')}\n${job.name}: no run ended by itself after ${run} runs`);
        const resume = hasCompleteCheckpoint(chk);
        if (kills >= opts.kills) {
          const r = await runToEnd(dir, resume, runTimeout);
          log.push(`  run ${run}: final${resume ? ', resumed' : ''}, exit ${r.code} after ${r.ms} ms`);
          if (r.code !== 0) throw new RunFailed(`${log.join('\n')}\n${r.output}`);
          break;
        }
        const cli = startCli(cliArgs(dir, resume), dir);
        const timer = setTimeout(() => cli.child.kill('SIGKILL'), runTimeout);
        let delay: number;
        let waitedForCheckpoint = 0;
        if (!resume) {
          // The first kill of a copy only once a checkpoint is complete: otherwise the resume is a fresh start.
          const t0 = Date.now();
          while (alive(cli) && !hasCompleteCheckpoint(chk)) await sleep(20);
          waitedForCheckpoint = Date.now() - t0;
          // Soon after it: on a busy machine the first checkpoint may complete late in the input.
          delay = Math.floor(random() * span * 0.1);
        } else {
          await Promise.race([cli.submitted, sleep(30_000)]);
          // One kill in three late (the tail of the input, end of input, final commit), the others anywhere.
          delay = Math.floor(random() < 0.33 ? span * (0.5 + 0.7 * random()) : span * random());
        }
        await Promise.race([sleep(delay), cli.exited]);
        const killed = alive(cli);
        if (killed) {
          cli.child.kill('SIGKILL');
          kills++;
        }
        const code = await cli.exited;
        clearTimeout(timer);
        const now = await output(job, dir);
        const when = resume ? `${delay} ms after submit` : `${delay} ms after the first checkpoint (${waitedForCheckpoint} ms)`;
        log.push(`  run ${run}: ${killed ? `killed ${when}` : `ended by itself (${code})`}${resume ? ', resumed' : ''}; committed ${size(now)} rows`);
        if (job.output === 'append') {
          // Whatever is committed at any time must be part of the final result: nothing twice, nothing wrong.
          const over = surplus(await referenceRows(), now);
          if (over.length > 0) {
            log.push(`    committed rows the reference does not hold: ${over.slice(0, 5).join(' | ')}${over.length > 5 ? ` (+${over.length - 5})` : ''}`);
            extraAfterKill.push(...over);
          }
        }
        if (!killed) {
          if (code !== 0) throw new RunFailed(`${log.join('\n')}\n${outputOf(cli)}`);
          break;
        }
      }
      const got = await output(job, dir);
      const expected = await referenceRows();
      const over = surplus(expected, got);
      const lost = surplus(got, expected);
      const neg = [...got].filter(([, n]) => n < 0).map(([r, n]) => `${r} x${n}`);
      log.push(`  committed ${size(got)} rows; extra ${over.length}, missing ${lost.length}${neg.length ? `, negative ${neg.length}` : ''}`);
      for (const r of over.slice(0, 5)) log.push(`    extra   ${r}`);
      for (const r of lost.slice(0, 5)) log.push(`    missing ${r}`);
      extra.push(...over);
      missing.push(...lost);
      negative.push(...neg);
    } finally {
      if (!opts.keepDirs) rmSync(dir, { recursive: true, force: true });
    }
  }
  return { job: job.name, seed: opts.seed, kills, rounds, extra, missing, extraAfterKill, negative, referenceRows: size(await referenceRows()), reference: await referenceRows(), log };
}

/** A limit on how many trials run at once (each trial runs up to two CLI processes). */
export function limiter(concurrency: number): <T>(f: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(f: () => Promise<T>): Promise<T> => {
    while (active >= concurrency) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await f();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
