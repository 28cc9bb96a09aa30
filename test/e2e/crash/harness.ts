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
import { decodeState } from '../../../src/runtime/state/state-codec.js';

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
  /**
   * When the first kill of a copy may come (it then lands at a seeded moment soon after): by default once a
   * checkpoint is complete; incremental trials wait for a chain of deltas (`incrementalChainAtLeast`).
   */
  readonly firstKillWhen?: (checkpointRoot: string) => boolean;
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

/** Paths of the complete checkpoints (chk-N/_metadata) under a checkpoint root. */
export function completeCheckpoints(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const job of readdirSync(root)) {
    let entries: string[];
    try {
      entries = readdirSync(join(root, job));
    } catch {
      continue;
    }
    for (const chk of entries) if (chk.startsWith('chk-') && existsSync(join(root, job, chk, '_metadata'))) out.push(join(job, chk));
  }
  return out;
}

/**
 * True when some complete checkpoint under the checkpoint root is a delta building on at least `n` earlier
 * checkpoints (incremental checkpoints: its `_metadata` lists them in `needs`), so a kill now restores
 * a chain, not one whole checkpoint.
 */
export function incrementalChainAtLeast(n: number): (root: string) => boolean {
  return (root) =>
    completeCheckpoints(root).some((c) => {
      try {
        const m = decodeState(readFileSync(join(root, c, '_metadata'))) as { needs?: number[] };
        return (m.needs?.length ?? 0) >= n;
      } catch {
        return false;
      }
    });
}

/**
 * Unaligned trials: true once the newest complete checkpoint holds rows in flight (metadata format v5), so the
 * kill that follows soon after most likely resumes from one and processes its rows in flight again.
 */
export function newestCheckpointHoldsRowsInFlight(root: string): boolean {
  const newest = completeCheckpoints(root)
    .map((c) => ({ c, n: Number(c.slice(c.lastIndexOf('chk-') + 4)) }))
    .sort((a, b) => b.n - a.n)[0];
  if (newest === undefined) return false;
  try {
    return (decodeState(readFileSync(join(root, newest.c, '_metadata'))) as { format?: string }).format === 'sluice-checkpoint-v5';
  } catch {
    return false;
  }
}

/** True when some job directory under the checkpoint root holds a complete checkpoint (chk-N/_metadata). */
export function hasCompleteCheckpoint(root: string): boolean {
  return completeCheckpoints(root).length > 0;
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

/**
 * Writes the job's input files and returns the job file: checkpoint settings, the parallelism when given,
 * the job's settings, sources, the sink and the INSERT.
 */
export function jobSql(job: CrashJob, dir: string, checkpointIntervalMs: number, parallelism?: number): string {
  for (const [path, content] of Object.entries(job.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return [
    `SET 'execution.checkpointing.interval' = '${checkpointIntervalMs} ms';`,
    `SET 'execution.checkpointing.dir' = '${join(dir, 'chk')}';`,
    ...(parallelism === undefined ? [] : [`SET 'parallelism.default' = '${parallelism}';`]),
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

/** Runs the CLI to its end: `ms` from start to exit, `jobMs` from the job's submission to exit. */
async function runToEnd(dir: string, resume: boolean, timeoutMs: number): Promise<{ code: number | string; ms: number; jobMs: number; output: string }> {
  const started = Date.now();
  let submitted = started;
  const run = startCli(cliArgs(dir, resume), dir);
  void run.submitted.then(() => (submitted = Date.now()));
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const code = await run.exited;
  clearTimeout(timer);
  const ended = Date.now();
  return { code, ms: ended - started, jobMs: ended - submitted, output: outputOf(run) };
}

async function output(job: CrashJob, dir: string): Promise<Multiset> {
  if (typeof job.output === 'object') return job.output.read(dir);
  return job.output === 'append' ? appendOutput(join(dir, 'out')) : materializedOutput(join(dir, 'out'));
}

async function prepare(job: CrashJob, dir: string, interval: number, parallelism?: number): Promise<void> {
  writeFileSync(join(dir, 'job.sql'), jobSql(job, dir, interval, parallelism));
  if (typeof job.output === 'object') await job.output.prepare?.(dir);
}

/** Runs the job once without failures; its committed output is what every trial must reproduce. */
export async function referenceRun(
  job: CrashJob,
  opts: Pick<TrialOptions, 'checkpointIntervalMs' | 'keepDirs' | 'runTimeoutMs'> & { readonly parallelism?: number } = {},
): Promise<{ rows: Multiset; ms: number; jobMs: number }> {
  const dir = newDir(`${job.name}-ref`);
  try {
    await prepare(job, dir, opts.checkpointIntervalMs ?? 200, opts.parallelism);
    const r = await runToEnd(dir, false, opts.runTimeoutMs ?? 90_000);
    if (r.code !== 0) throw new RunFailed(`${job.name}: the failure-free run exited with ${r.code}\n${r.output}`);
    return { rows: await output(job, dir), ms: r.ms, jobMs: r.jobMs };
  } finally {
    if (!opts.keepDirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** The failure-free run, going on beside the first killed copy; until it ends, kill delays range over a guess. */
class Reference {
  /** How long a whole run takes from start to end: kill delays range over it. */
  span: number;
  /** How long the job runs once submitted (the CLI's startup left out, which a busy machine stretches). */
  jobSpan: number;
  /** A failed reference fails the trial at once, not only when the killed copies are done. */
  error: unknown;
  private readonly done: Promise<{ rows: Multiset; ms: number }>;

  constructor(job: CrashJob, opts: Omit<TrialOptions, 'kills'>, log: string[], parallelism?: number) {
    this.span = opts.spanMs ?? 3000;
    this.jobSpan = this.span;
    const settings = { checkpointIntervalMs: opts.checkpointIntervalMs ?? 200, keepDirs: opts.keepDirs, runTimeoutMs: opts.runTimeoutMs ?? 90_000, parallelism };
    this.done = referenceRun(job, settings).then((r) => {
      this.span = Math.max(1500, r.ms);
      this.jobSpan = Math.max(1000, r.jobMs);
      log.push(`reference${parallelism === undefined ? '' : ` at parallelism ${parallelism}`}: ${size(r.rows)} rows in ${r.ms} ms (${r.jobMs} ms after submission)`);
      return r;
    });
    this.done.catch((e: unknown) => (this.error = e));
  }

  async rows(): Promise<Multiset> {
    return (await this.done).rows;
  }

  throwIfFailed(): void {
    if (this.error) throw this.error;
  }
}

/** What the rounds of a trial found wrong, gathered over its copies. */
class Findings {
  readonly extra: string[] = [];
  readonly missing: string[] = [];
  readonly extraAfterKill: string[] = [];
  readonly negative: string[] = [];

  constructor(
    private readonly job: CrashJob,
    private readonly reference: Reference,
    private readonly log: string[],
  ) {}

  /**
   * After a run of a copy: logs `line` (given the rows committed so far); an append-only job's committed
   * rows must all be part of the final result.
   */
  async afterRun(dir: string, line: (committed: number) => string): Promise<void> {
    const now = await output(this.job, dir);
    this.log.push(line(size(now)));
    if (this.job.output === 'append') {
      const over = surplus(await this.reference.rows(), now);
      if (over.length > 0) {
        this.log.push(`    committed rows the reference does not hold: ${over.slice(0, 5).join(' | ')}${over.length > 5 ? ` (+${over.length - 5})` : ''}`);
        this.extraAfterKill.push(...over);
      }
    }
  }

  /** At the end of a copy: its committed output against the reference's, exactly. */
  async atEnd(dir: string): Promise<void> {
    const got = await output(this.job, dir);
    const expected = await this.reference.rows();
    const over = surplus(expected, got);
    const lost = surplus(got, expected);
    const neg = [...got].filter(([, n]) => n < 0).map(([r, n]) => `${r} x${n}`);
    this.log.push(`  committed ${size(got)} rows; extra ${over.length}, missing ${lost.length}${neg.length ? `, negative ${neg.length}` : ''}`);
    for (const r of over.slice(0, 5)) this.log.push(`    extra   ${r}`);
    for (const r of lost.slice(0, 5)) this.log.push(`    missing ${r}`);
    this.extra.push(...over);
    this.missing.push(...lost);
    this.negative.push(...neg);
  }

  async result(seed: number, kills: number, rounds: number, log: readonly string[]): Promise<TrialResult> {
    const reference = await this.reference.rows();
    const { extra, missing, extraAfterKill, negative } = this;
    return { job: this.job.name, seed, kills, rounds, extra, missing, extraAfterKill, negative, referenceRows: size(reference), reference, log };
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
  const reference = new Reference(job, opts, log);
  const findings = new Findings(job, reference, log);
  let kills = 0;
  let rounds = 0;
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
        reference.throwIfFailed();
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
        const span = reference.span;
        if (!resume) {
          // The first kill of a copy only once a checkpoint is complete: otherwise the resume is a fresh start.
          const t0 = Date.now();
          const ready = opts.firstKillWhen ?? hasCompleteCheckpoint;
          while (alive(cli) && !ready(chk)) await sleep(20);
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
        const when = resume ? `${delay} ms after submit` : `${delay} ms after the first checkpoint (${waitedForCheckpoint} ms)`;
        await findings.afterRun(dir, (n) => `  run ${run}: ${killed ? `killed ${when}` : `ended by itself (${code})`}${resume ? ', resumed' : ''}; committed ${n} rows`);
        if (!killed) {
          if (code !== 0) throw new RunFailed(`${log.join('\n')}\n${outputOf(cli)}`);
          break;
        }
      }
      await findings.atEnd(dir);
    } finally {
      if (!opts.keepDirs) rmSync(dir, { recursive: true, force: true });
    }
  }
  return findings.result(opts.seed, kills, rounds, log);
}

export interface RescaleOptions extends Omit<TrialOptions, 'kills'> {
  /**
   * The parallelism of each run of a copy, in order (e.g. 2, 3, 1): every run but the last is SIGKILLed at
   * a random moment after a checkpoint of its own completed, so the next run restores state written at
   * the parallelism before; the last runs to the end. The reference runs at the first.
   */
  readonly parallelisms: readonly number[];
  /** Copies of the job to take through all parallelisms (default 1). */
  readonly copies?: number;
  /**
   * Whether a new checkpoint of the run is the kind to restore from (given the checkpoint root), e.g. one
   * holding rows in flight: a run is then killed as soon as one is, so that the next run restores it (default:
   * any new checkpoint, and the kill comes at a seeded moment after it).
   */
  readonly killWhen?: (chkRoot: string) => boolean;
}

/**
 * A resume at other parallelisms (issue #12 item 6): runs fresh copies of the job at `parallelisms[0]`,
 * SIGKILLs each once a checkpoint completed (at a seeded random moment after it), resumes it at the next
 * parallelism, kills it again once that run completed a checkpoint of its own, and so on; the last run
 * goes to the end. Every copy's committed output must equal the failure-free run's exactly. A copy whose
 * run ends by itself before it could be killed is not counted, and another copy is started.
 */
export async function rescaleTrial(job: CrashJob, opts: RescaleOptions): Promise<TrialResult> {
  const interval = opts.checkpointIntervalMs ?? 200;
  const runTimeout = opts.runTimeoutMs ?? 90_000;
  const copies = opts.copies ?? 1;
  const ps = opts.parallelisms;
  const random = mulberry32(opts.seed);
  const log: string[] = [`${job.name}: parallelism ${ps.join(' -> ')}, seed ${opts.seed} (replay with CRASH_SEED=${opts.seed})`];
  const reference = new Reference(job, opts, log, ps[0]);
  const findings = new Findings(job, reference, log);
  let kills = 0;
  let rounds = 0;
  let done = 0;
  while (done < copies) {
    if (rounds >= 4 * copies + 2) throw new RunFailed(`${log.join('\n')}\n${job.name}: ${rounds} copies ended before they could be killed at every parallelism`);
    const dir = newDir(`${job.name}-rescale`);
    rounds++;
    log.push(`round ${rounds} in ${dir}`);
    try {
      const chk = join(dir, 'chk');
      let complete = true;
      for (let run = 0; run < ps.length; run++) {
        reference.throwIfFailed();
        await prepare(job, dir, interval, ps[run]);
        const resume = run > 0;
        if (run === ps.length - 1) {
          const r = await runToEnd(dir, resume, runTimeout);
          log.push(`  run ${run} at parallelism ${ps[run]}: final${resume ? ', resumed' : ''}, exit ${r.code} after ${r.ms} ms`);
          if (r.code !== 0) throw new RunFailed(`${log.join('\n')}\n${r.output}`);
          break;
        }
        const before = new Set(completeCheckpoints(chk));
        const cli = startCli(cliArgs(dir, resume), dir);
        const timer = setTimeout(() => cli.child.kill('SIGKILL'), runTimeout);
        const t0 = Date.now();
        // Killed only after a checkpoint of this run, so the next run restores state of this parallelism.
        const wanted = (): boolean => completeCheckpoints(chk).some((c) => !before.has(c)) && (opts.killWhen?.(chk) ?? true);
        while (alive(cli) && !wanted()) await sleep(20);
        const waited = Date.now() - t0;
        // Within the first quarter of a job's time after its checkpoint: the next run still has input left.
        const delay = opts.killWhen === undefined ? Math.floor(random() * reference.jobSpan * 0.25) : 0;
        await Promise.race([sleep(delay), cli.exited]);
        const killed = alive(cli);
        if (killed) {
          cli.child.kill('SIGKILL');
          kills++;
        }
        const code = await cli.exited;
        clearTimeout(timer);
        await findings.afterRun(
          dir,
          (n) => `  run ${run} at parallelism ${ps[run]}: ${killed ? `killed ${delay} ms after a checkpoint of its own (${waited} ms)` : `ended by itself (${code})`}${resume ? ', resumed' : ''}; committed ${n} rows`,
        );
        if (!killed) {
          if (code !== 0) throw new RunFailed(`${log.join('\n')}\n${outputOf(cli)}`);
          complete = false;
          break;
        }
      }
      // A copy that ended early still must be exact; it only does not count as taken through every parallelism.
      await findings.atEnd(dir);
      if (complete) done++;
    } finally {
      if (!opts.keepDirs) rmSync(dir, { recursive: true, force: true });
    }
  }
  return findings.result(opts.seed, kills, rounds, log);
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
