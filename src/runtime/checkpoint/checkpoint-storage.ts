import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { ExecutionError } from '../../errors/sluice-error.js';
import { decodeState, ExternalBytes, encodeState, encodeStateInPieces } from '../state/state-codec.js';
import { isSpilled, type OperatorSnapshotBytes, snapshotBytes } from './spilled-snapshot.js';
import { CHECKPOINT_METADATA_FORMAT, checkMetadataFormat, IN_FLIGHT_METADATA_FORMAT, INCREMENTAL_METADATA_FORMAT, TASK_LAYOUT_FORMATS } from './checkpoint-format.js';
import { mergeOperatorSnapshots, operatorSnapshotBase } from './incremental.js';
import type { CompletedCheckpoint, SerializedValue, StoredCheckpoint, TaskLayoutCommittable, TaskSnapshot } from './completed-checkpoint.js';

const METADATA = '_metadata';

/**
 * Checkpoint files: `<dir>/<jobId>/chk-N/` holds one state file per vertex and subtask (`vertex-N.state`;
 * `task-N.state`, one per task and subtask, in checkpoints before format v3) plus `_metadata`, written last
 * and atomically (temp file, fsync, rename). A directory without `_metadata` is not a checkpoint.
 * Savepoints use `<dir>/savepoint-<shortid>-<rand>/` with the same layout.
 *
 * Durability: every task file is fsynced, then the directory, before `_metadata` names them; `_metadata`
 * records each file's length and CRC-32, so a checkpoint torn by a crash or a full disk is recognised on
 * resume and skipped for an older one. Resolves with the bytes written (task files and `_metadata`).
 *
 * Incremental checkpoints: an operator snapshot that is a delta builds on an earlier checkpoint of the job
 * (`checkpointsDir`, by default the directory holding `target`). `_metadata` then lists in `needs` every
 * checkpoint its deltas read, their own bases included (format v4), so that retention keeps them; a
 * savepoint must stand alone, so its deltas are merged onto their bases here and it holds none.
 *
 * @throws ExecutionError if a delta's base is gone (retention removed it while this checkpoint was taken)
 */
export async function writeCheckpoint(target: string, cp: CompletedCheckpoint, options: { checkpointsDir?: string } = {}): Promise<number> {
  const checkpointsDir = options.checkpointsDir ?? dirname(target);
  const created = await mkdir(target, { recursive: true });
  const stateFiles: Array<[string, TaskFileEntry]> = [];
  const writes: Promise<void>[] = [];
  const bases = new Set<number>();
  const chains = new ChainReader(checkpointsDir, target);
  let i = 0;
  for (const [key, vertexSnap] of cp.vertices) {
    let snap = vertexSnap;
    const opBases = snap.operators.map(snapshotBase);
    if (opBases.some((b) => b !== undefined)) {
      if (cp.isSavepoint) snap = { ...snap, operators: await chains.merged(key, snap.operators.map(snapshotBytes)) };
      else for (const b of opBases) if (b !== undefined) bases.add(b);
    }
    const file = `vertex-${i++}.state`;
    // The operators' encoded state goes into the file as it is, not copied into one buffer first: for
    // state larger than memory it can be a GB, and then it is copied from the file it was spilled to at
    // the barrier. The file's bytes are those of encodeState(snap) with each spilled snapshot read back.
    const operators = snap.operators.map((o) => (isSpilled(o) ? new ExternalBytes(o.length, o.spilledTo) : o));
    const pieces = encodeStateInPieces({ ...snap, operators }, GATHER_BYTES);
    // Written and fsynced concurrently: the syncs overlap instead of adding up.
    const entry: [string, TaskFileEntry] = [key, { file, length: undefined, crc32: undefined }];
    stateFiles.push(entry);
    writes.push(writeDurably(join(target, file), pieces).then((written) => void (entry[1] = { file, ...written })));
  }
  await Promise.all(writes);
  const needs = await neededCheckpoints(checkpointsDir, cp.checkpointId, bases);
  // The new directory's entry in its parent, and the task files' entries, must be on disk before
  // `_metadata` makes them a checkpoint.
  if (created !== undefined) {
    for (let d = target; d !== dirname(created); d = dirname(d)) await syncDirectory(dirname(d));
  }
  await syncDirectory(target);
  const meta = encodeState({
    // Without deltas or rows in flight the format older releases read; with them one they refuse rather than
    // restore a delta or drop the rows.
    format: [...cp.vertices.values()].some((s) => s.inFlight !== undefined) ? IN_FLIGHT_METADATA_FORMAT : needs.length > 0 ? INCREMENTAL_METADATA_FORMAT : CHECKPOINT_METADATA_FORMAT,
    jobId: cp.jobId,
    checkpointId: cp.checkpointId,
    isSavepoint: cp.isSavepoint,
    timestamp: cp.timestamp,
    parallelism: [...cp.parallelism],
    maxParallelism: cp.maxParallelism,
    enumerators: [...cp.enumerators],
    committables: cp.committables,
    stateFiles,
    ...(cp.vertexNames === undefined ? {} : { vertexNames: [...cp.vertexNames] }),
    ...(needs.length > 0 ? { needs } : {}),
  });
  const tmp = join(target, `${METADATA}.inprogress`);
  await writeDurably(tmp, meta);
  await rename(tmp, join(target, METADATA));
  await syncDirectory(target);
  return stateFiles.reduce((n, [, f]) => n + f.length!, meta.length);
}

/**
 * Every checkpoint the deltas of checkpoint `id` read: their `bases` and, since a base may be a delta
 * itself, what each base needs (from its `_metadata`), newest first.
 */
async function neededCheckpoints(checkpointsDir: string, id: number, bases: ReadonlySet<number>): Promise<number[]> {
  const needs = new Set<number>();
  for (const b of bases) {
    const dir = join(checkpointsDir, `chk-${b}`);
    let m: Metadata;
    try {
      m = decodeMetadata(await readFile(join(dir, METADATA)), dir);
    } catch (e) {
      throw new ExecutionError(`Checkpoint ${id} builds on checkpoint ${b} (incremental checkpoints), but '${dir}' holds no completed checkpoint any more.`, { cause: e });
    }
    needs.add(b);
    for (const n of m.needs ?? []) needs.add(n);
  }
  return [...needs].sort((a, b) => b - a);
}

/**
 * Reads the chains of bases of deltas: the raw (unmerged) snapshots of earlier checkpoints under
 * `checkpointsDir`, each read once, for the checkpoint `forPath` (named in errors).
 */
class ChainReader {
  private readonly read = new Map<number, Promise<ReadonlyMap<string, TaskSnapshot>>>();

  constructor(
    private readonly checkpointsDir: string,
    private readonly forPath: string,
    /** The checkpoints a chain may go through (those `_metadata` lists in `needs`); any when undefined. */
    private readonly allowed?: ReadonlySet<number>,
  ) {}

  /** Checkpoint `id`'s snapshots as stored, its files verified. @throws TornCheckpointError for `forPath` */
  snapshots(id: number): Promise<ReadonlyMap<string, TaskSnapshot>> {
    let p = this.read.get(id);
    if (p === undefined) {
      const dir = join(this.checkpointsDir, `chk-${id}`);
      p = readStored(dir).then(
        (r) => r.snapshots,
        (e: unknown) => {
          const why = e instanceof TornCheckpointError ? e.reason : e instanceof Error ? e.message : String(e);
          throw new TornCheckpointError(this.forPath, `it builds on checkpoint '${dir}' (incremental checkpoints), which cannot be read: ${why}`, e);
        },
      );
      this.read.set(id, p);
    }
    return p;
  }

  /** The encoded snapshots of one operator from the whole one its chain starts with to `bytes`, oldest first. */
  async chain(key: string, op: number, bytes: Uint8Array): Promise<Uint8Array[]> {
    const out = [bytes];
    for (let b = operatorSnapshotBase(bytes); b !== undefined; b = operatorSnapshotBase(out[0]!)) {
      if ((this.allowed !== undefined && !this.allowed.has(b)) || out.length > 1_000) {
        throw new TornCheckpointError(this.forPath, `a delta of '${key}' builds on checkpoint ${b}, which its ${METADATA} does not list`);
      }
      const s = (await this.snapshots(b)).get(key);
      const stored = s?.operators[op];
      const prev = stored === undefined ? undefined : snapshotBytes(stored);
      if (prev === undefined) throw new TornCheckpointError(this.forPath, `checkpoint ${b}, which a delta of '${key}' builds on, holds no state of that operator`);
      out.unshift(prev);
    }
    return out;
  }

  /** `operators` with each delta merged onto its chain: whole snapshots. */
  async merged(key: string, operators: readonly Uint8Array[]): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    for (let op = 0; op < operators.length; op++) {
      const bytes = operators[op]!;
      out.push(operatorSnapshotBase(bytes) === undefined ? bytes : mergeOperatorSnapshots(await this.chain(key, op, bytes)));
    }
    return out;
  }
}

/** One state file as `_metadata` names it. Checkpoints of format v1 recorded the name only. */
interface TaskFileEntry {
  readonly file: string;
  readonly length: number | undefined;
  readonly crc32: number | undefined;
}

/** Byte arrays (operators' encoded state) from this size on are written to a state file without a copy. */
const GATHER_BYTES = 1 << 20;
/** Bytes read at a time from a spilled snapshot into its checkpoint's file. */
const COPY_BYTES = 4 << 20;

/** Writes `bytes` (or its pieces, one after the other) and fsyncs the file. */
/** Writes and fsyncs `bytes` (pieces one after the other, a spilled snapshot copied from its file); their length and CRC-32. */
async function writeDurably(path: string, bytes: Uint8Array | ReadonlyArray<Uint8Array | ExternalBytes>): Promise<{ length: number; crc32: number }> {
  const fh = await open(path, 'w');
  let length = 0;
  let crc = 0;
  try {
    // Each writeFile goes on from where the last one ended.
    for (const b of bytes instanceof Uint8Array ? [bytes] : bytes) {
      if (b instanceof Uint8Array) {
        await fh.writeFile(b);
        length += b.byteLength;
        crc = crc32(b, crc);
        continue;
      }
      for await (const chunk of createReadStream(b.source, { highWaterMark: COPY_BYTES })) {
        const c = chunk as Buffer;
        await fh.writeFile(c);
        length += c.byteLength;
        crc = crc32(c, crc);
      }
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  return { length, crc32: crc };
}

/** fsyncs a directory so the entries created or renamed in it survive a crash. */
export async function syncDirectory(path: string): Promise<void> {
  const dh = await open(path, 'r');
  try {
    await dh.sync();
  } catch {
    // Some file systems cannot fsync a directory; renames there are still atomic.
  } finally {
    await dh.close();
  }
}

/**
 * Reads a `chk-N` or savepoint directory, verifying that every file it names is whole. A checkpoint of
 * format v1 or v2 comes back keyed by task (`layout: 'task'`); `toVertexLayout` converts it for a job. A
 * checkpoint with deltas (format v4) comes back with each merged onto the checkpoints it builds on (in the
 * same directory as `path`), so it restores as a whole one would, at any parallelism and into any backend.
 */
export async function readCheckpoint(path: string): Promise<StoredCheckpoint> {
  const { m, snapshots } = await readStored(path);
  if (m.needs !== undefined && m.needs.length > 0) {
    const chains = new ChainReader(dirname(path), path, new Set(m.needs));
    for (const [key, snap] of snapshots) {
      if (snap.operators.every((o) => snapshotBase(o) === undefined)) continue;
      snapshots.set(key, { ...snap, operators: await chains.merged(key, snap.operators.map(snapshotBytes)) });
    }
  }
  const common = {
    jobId: m.jobId,
    checkpointId: m.checkpointId,
    isSavepoint: m.isSavepoint,
    timestamp: m.timestamp,
    parallelism: new Map(m.parallelism),
    maxParallelism: m.maxParallelism,
    enumerators: new Map(m.enumerators),
    path,
  };
  const taskLayout = TASK_LAYOUT_FORMATS.includes(m.format as string);
  if (taskLayout) return { ...common, layout: 'task', tasks: snapshots, committables: m.committables as unknown as TaskLayoutCommittable[] };
  const names = m.vertexNames === undefined ? {} : { vertexNames: new Map(m.vertexNames) };
  return { ...common, layout: 'vertex', vertices: snapshots, committables: m.committables, ...names };
}

/**
 * Whether `path` holds a checkpoint that reads back: its files and those of every checkpoint it needs are
 * whole (what `readCheckpoint` checks, without merging deltas).
 *
 * @throws TornCheckpointError naming what is missing, short or corrupt
 */
async function verifyCheckpoint(path: string): Promise<void> {
  const { m } = await readStored(path);
  const chains = new ChainReader(dirname(path), path);
  // Each needed checkpoint's files are read and checked (its own `needs` are among these).
  for (const id of m.needs ?? []) await chains.snapshots(id);
}

/** A checkpoint's `_metadata` and its state files as stored (deltas not merged), every file verified. */
async function readStored(path: string): Promise<{ m: Metadata; snapshots: Map<string, TaskSnapshot> }> {
  let metaBytes: Buffer;
  try {
    metaBytes = await readFile(join(path, METADATA));
  } catch (e) {
    throw new ExecutionError(`Cannot restore from '${path}': it holds no completed checkpoint or savepoint (no ${METADATA} file).`, { cause: e });
  }
  const m = decodeMetadata(metaBytes, path);
  const snapshots = new Map<string, TaskSnapshot>();
  const taskLayout = TASK_LAYOUT_FORMATS.includes(m.format as string);
  for (const [key, entry] of (taskLayout ? m.taskFiles : m.stateFiles) ?? []) {
    const f = typeof entry === 'string' ? { file: entry, length: undefined, crc32: undefined } : entry;
    let bytes: Buffer;
    try {
      bytes = await readFile(join(path, f.file));
    } catch (e) {
      throw new TornCheckpointError(path, `its state file '${f.file}' is missing`, e);
    }
    if (f.length !== undefined && bytes.length !== f.length) {
      throw new TornCheckpointError(path, `its state file '${f.file}' has ${bytes.length} bytes, ${f.length} were written`);
    }
    if (f.crc32 !== undefined && crc32(bytes) !== f.crc32) {
      throw new TornCheckpointError(path, `its state file '${f.file}' does not match its checksum`);
    }
    try {
      snapshots.set(key, decodeState(bytes) as TaskSnapshot);
    } catch (e) {
      throw new TornCheckpointError(path, `its state file '${f.file}' cannot be decoded (${e instanceof Error ? e.message : String(e)})`, e);
    }
  }
  return { m, snapshots };
}

interface Metadata {
  format: unknown;
  jobId: string; checkpointId: number; isSavepoint: boolean; timestamp: number;
  parallelism: Array<[string, number]>; maxParallelism: number | undefined; enumerators: Array<[string, SerializedValue]>;
  /** Format v3: per vertex; v1 and v2: `TaskLayoutCommittable`s. */
  committables: CompletedCheckpoint['committables'];
  /** Format v3: `<vertexId>#<subtask>` -> its file. */
  stateFiles: Array<[string, TaskFileEntry]> | undefined;
  /** Formats v1 and v2: `<taskId>#<subtask>` -> its file. */
  taskFiles: Array<[string, string | TaskFileEntry]> | undefined;
  /** Format v3, optional: vertex id -> operator description. */
  vertexNames: Array<[string, string]> | undefined;
  /** Format v4: the earlier checkpoints (ids, in the same directory) whose files its deltas read. */
  needs: number[] | undefined;
}

function decodeMetadata(bytes: Uint8Array, path: string): Metadata {
  let m: Metadata;
  try {
    m = decodeState(bytes) as Metadata;
  } catch (e) {
    throw new TornCheckpointError(path, `its ${METADATA} file cannot be decoded (${e instanceof Error ? e.message : String(e)})`, e);
  }
  if (m === null || typeof m !== 'object') throw new TornCheckpointError(path, `its ${METADATA} file holds no checkpoint description`);
  checkMetadataFormat(m.format, path);
  return m;
}

/** A checkpoint whose `_metadata` exists but whose files are missing, short or corrupt. */
export class TornCheckpointError extends ExecutionError {
  constructor(readonly path: string, readonly reason: string, cause?: unknown) {
    super(`Checkpoint '${path}' is incomplete: ${reason}.`, cause === undefined ? undefined : { cause });
  }
}

/**
 * The newest `chk-N` under a job directory that is whole, or undefined. A `chk-N` without `_metadata`
 * was never completed and is passed over silently; one with `_metadata` whose files are torn is passed
 * over with `onSkipped` (the caller says so to the user), and the next older one is tried.
 */
export async function findLatestCompletedCheckpoint(
  jobDir: string,
  onSkipped: (path: string, reason: string) => void = () => {},
): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(jobDir);
  } catch {
    return undefined;
  }
  const ids = names
    .map((n) => /^chk-(\d+)$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => b - a);
  for (const id of ids) {
    const dir = join(jobDir, `chk-${id}`);
    if (!(await stat(join(dir, METADATA)).then(() => true, () => false))) continue;
    try {
      await verifyCheckpoint(dir);
      return dir;
    } catch (e) {
      if (!(e instanceof TornCheckpointError)) throw e;
      onSkipped(dir, e.reason);
    }
  }
  return undefined;
}

/**
 * Deletes all but the newest `retain` completed checkpoints (and any incomplete older ones), keeping every
 * checkpoint a kept one needs (its `_metadata`'s `needs`: the bases of its deltas). With `incremental`, the
 * newest one beyond `retain` is kept too, with what it needs: a checkpoint being taken now may build on it
 * (a task takes the newest checkpoint it was told is complete as its base, and the notice of the newest
 * may not have reached it yet); it goes at the next completed checkpoint.
 */
export async function pruneCheckpoints(jobDir: string, retain: number, options: { incremental?: boolean } = {}): Promise<void> {
  const names = await readdir(jobDir).catch(() => [] as string[]);
  const ids = names.map((n) => /^chk-(\d+)$/.exec(n)).filter((m): m is RegExpExecArray => m !== null).map((m) => Number(m[1]));
  const completed: number[] = [];
  for (const id of ids) {
    if (await stat(join(jobDir, `chk-${id}`, METADATA)).then(() => true, () => false)) completed.push(id);
  }
  completed.sort((a, b) => b - a);
  const newest = completed.slice(0, retain + (options.incremental ? 1 : 0));
  const keep = new Set(newest);
  for (const id of newest) for (const n of await recordedNeeds(join(jobDir, `chk-${id}`))) keep.add(n);
  const newestKept = completed[Math.min(retain, completed.length) - 1] ?? Infinity;
  for (const id of ids) {
    if (keep.has(id)) continue;
    if (completed.includes(id) || id < newestKept) await rm(join(jobDir, `chk-${id}`), { recursive: true, force: true });
  }
}

/** The checkpoints a checkpoint's `_metadata` says it needs; none if it cannot be read (it is kept or pruned as it is). */
async function recordedNeeds(dir: string): Promise<number[]> {
  try {
    return decodeMetadata(await readFile(join(dir, METADATA)), dir).needs ?? [];
  } catch {
    return [];
  }
}

/** A fresh savepoint directory name under `dir`. */
export function savepointPath(dir: string, jobId: string): string {
  return join(dir, `savepoint-${jobId.slice(0, 6)}-${randomBytes(6).toString('hex')}`);
}

/** The checkpoint an operator snapshot builds on (a delta), or undefined for a whole one. */
function snapshotBase(o: OperatorSnapshotBytes): number | undefined {
  return isSpilled(o) ? o.base : operatorSnapshotBase(o);
}
