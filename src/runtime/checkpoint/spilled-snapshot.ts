import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { ExecutionError } from '../../errors/sluice-error.js';
import { newStoreDir, removeStoreDir, trackStore } from '../state/lmdb-store.js';
import { encodeStateToFile } from '../state/state-codec.js';
import type { TaskSnapshot } from './completed-checkpoint.js';

/**
 * An operator snapshot written to a file at the barrier instead of held in memory: the snapshot of an
 * on-disk state backend holds every key (about 20 bytes each, a GB at 50 M keys), and the checkpoint
 * writer copies it into the checkpoint's file from here. A plain object, so it passes between threads.
 * The file is scratch space under the backend's local directory, removed once the checkpoint is written
 * (or failed), and at process exit; a dead process's are removed by the next one (as its stores are).
 */
export interface SpilledSnapshot {
  readonly spilledTo: string;
  /** Bytes in the file: the encoded `OperatorSnapshot`. */
  readonly length: number;
  /** The checkpoint id a delta builds on (`OperatorSnapshot.base`), read without opening the file. */
  readonly base: number | undefined;
}

/** An operator's encoded snapshot as a task acknowledges it: in memory, or spilled to a file. */
export type OperatorSnapshotBytes = Uint8Array | SpilledSnapshot;

export function isSpilled(o: OperatorSnapshotBytes): o is SpilledSnapshot {
  return !(o instanceof Uint8Array);
}

/** Bytes of the encoded snapshot, wherever it is. */
export function snapshotLength(o: OperatorSnapshotBytes): number {
  return isSpilled(o) ? o.length : o.byteLength;
}

/**
 * Encodes `snapshot` into a new scratch file under `localDir` (the system temp directory when undefined).
 *
 * @throws ExecutionError naming the directory when the file cannot be written (a full disk), or as `encodeState`
 */
export function spillSnapshot(snapshot: { readonly base?: number }, localDir: string | undefined): SpilledSnapshot {
  const path = newStoreDir(localDir, 'snapshot');
  let fd: number | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(path, 'w');
    // Removed at exit only by the main thread: a worker thread may end before the main thread has copied
    // its last snapshot (a stop with savepoint); a dead process's files are removed by the next one.
    if (isMainThread) trackStore(path, true);
    const length = encodeStateToFile(snapshot, fd);
    return { spilledTo: path, length, base: snapshot.base };
  } catch (e) {
    removeSpilledFile(path);
    if (e instanceof ExecutionError) throw e;
    throw new ExecutionError(
      `Cannot take the checkpoint: the operator's state could not be written to '${path}' (state.backend.lmdb.localdir): ${(e as NodeJS.ErrnoException).code ?? 'write failed'}.`,
      { cause: e },
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The encoded snapshot in memory, a spilled one read from its file: for what must decode it whole anyway
 * (a checkpoint kept in memory, a savepoint merging deltas, a restore).
 */
export function snapshotBytes(o: OperatorSnapshotBytes): Uint8Array {
  return isSpilled(o) ? readFileSync(o.spilledTo) : o;
}

/** Removes the scratch file of `s` (done with it, or giving up on its checkpoint). */
export function removeSpilled(s: SpilledSnapshot): void {
  removeSpilledFile(s.spilledTo);
}

function removeSpilledFile(path: string): void {
  trackStore(path, false);
  removeStoreDir(path);
}

/** Removes the scratch files of the snapshots' spilled operator states: their checkpoint is written, or given up. */
export function removeSpilledOf(snapshots: Iterable<TaskSnapshot>): void {
  for (const s of snapshots) for (const o of s.operators) if (isSpilled(o)) removeSpilled(o);
}

/** `s` with its spilled operator states read into memory (a checkpoint kept in memory, with no directory to go to). */
export function inMemory(s: TaskSnapshot): TaskSnapshot {
  return s.operators.some(isSpilled) ? { ...s, operators: s.operators.map(snapshotBytes) } : s;
}
