import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm, writeFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ExecutionError } from '../../errors/sluice-error.js';
import { decodeState, encodeState } from '../state/state-codec.js';
import type { CompletedCheckpoint } from './completed-checkpoint.js';

const METADATA = '_metadata';

/**
 * Checkpoint files: `<dir>/<jobId>/chk-N/` holds one state file per task plus `_metadata`, written last
 * and atomically (temp file, fsync, rename). A directory without `_metadata` is not a checkpoint.
 * Savepoints use `<dir>/savepoint-<shortid>-<rand>/` with the same layout.
 */
export async function writeCheckpoint(target: string, cp: CompletedCheckpoint): Promise<void> {
  await mkdir(target, { recursive: true });
  const taskFiles: Record<string, string> = {};
  let i = 0;
  for (const [key, snap] of cp.tasks) {
    const file = `task-${i++}.state`;
    await writeFile(join(target, file), encodeState(snap));
    taskFiles[key] = file;
  }
  const meta = encodeState({
    format: 'sluice-checkpoint-v1',
    jobId: cp.jobId,
    checkpointId: cp.checkpointId,
    isSavepoint: cp.isSavepoint,
    timestamp: cp.timestamp,
    parallelism: [...cp.parallelism],
    enumerators: [...cp.enumerators],
    committables: cp.committables,
    taskFiles: Object.entries(taskFiles),
  });
  const tmp = join(target, `${METADATA}.inprogress`);
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(meta);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(target, METADATA));
  const dh = await open(target, 'r');
  try {
    await dh.sync();
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic.
  } finally {
    await dh.close();
  }
}

/** Reads a `chk-N` or savepoint directory. */
export async function readCheckpoint(path: string): Promise<CompletedCheckpoint> {
  let metaBytes: Buffer;
  try {
    metaBytes = await readFile(join(path, METADATA));
  } catch (e) {
    throw new ExecutionError(`Cannot restore from '${path}': it holds no completed checkpoint or savepoint (no ${METADATA} file).`, { cause: e });
  }
  const m = decodeState(metaBytes) as {
    jobId: string; checkpointId: number; isSavepoint: boolean; timestamp: number;
    parallelism: Array<[string, number]>; enumerators: CompletedCheckpoint['enumerators'] extends Map<infer K, infer V> ? Array<[K, V]> : never;
    committables: CompletedCheckpoint['committables']; taskFiles: Array<[string, string]>;
  };
  const tasks = new Map<string, never>();
  for (const [key, file] of m.taskFiles) tasks.set(key, decodeState(await readFile(join(path, file))) as never);
  return {
    jobId: m.jobId,
    checkpointId: m.checkpointId,
    isSavepoint: m.isSavepoint,
    timestamp: m.timestamp,
    parallelism: new Map(m.parallelism),
    enumerators: new Map(m.enumerators),
    committables: m.committables,
    tasks,
    path,
  };
}

/** The highest-numbered `chk-N` under a job directory that has `_metadata`, or undefined. */
export async function findLatestCompletedCheckpoint(jobDir: string): Promise<string | undefined> {
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
    try {
      await stat(join(dir, METADATA));
      return dir;
    } catch {
      // Not completed (crashed while writing): skip it.
    }
  }
  return undefined;
}

/** Deletes all but the newest `retain` completed checkpoints (and any incomplete older ones). */
export async function pruneCheckpoints(jobDir: string, retain: number): Promise<void> {
  const names = await readdir(jobDir).catch(() => [] as string[]);
  const ids = names.map((n) => /^chk-(\d+)$/.exec(n)).filter((m): m is RegExpExecArray => m !== null).map((m) => Number(m[1]));
  const completed: number[] = [];
  for (const id of ids) {
    if (await stat(join(jobDir, `chk-${id}`, METADATA)).then(() => true, () => false)) completed.push(id);
  }
  completed.sort((a, b) => b - a);
  const keep = new Set(completed.slice(0, retain));
  const newestKept = completed[Math.min(retain, completed.length) - 1] ?? Infinity;
  for (const id of ids) {
    if (keep.has(id)) continue;
    if (completed.includes(id) || id < newestKept) await rm(join(jobDir, `chk-${id}`), { recursive: true, force: true });
  }
}

/** A fresh savepoint directory name under `dir`. */
export function savepointPath(dir: string, jobId: string): string {
  return join(dir, `savepoint-${jobId.slice(0, 6)}-${randomBytes(6).toString('hex')}`);
}
