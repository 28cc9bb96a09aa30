import { ValidationError } from '../../errors/sluice-error.js';
import { keyGroupRange, type KeyGroupRange } from '../key-groups.js';
import type { Partitioner } from '../partitioner.js';
import type { ChainedVertex } from '../task-host.js';
import type { CompletedCheckpoint, SerializedValue, TaskSnapshot } from './completed-checkpoint.js';
import { redistributeInFlight } from './in-flight-rescale.js';
import { snapshotBytes } from './spilled-snapshot.js';

/** How a subtask restored at another parallelism takes its share of the old subtasks' state. */
export interface Rescale {
  /** The key groups this subtask owns now: it keeps the keys of these groups only. */
  readonly keyGroups: KeyGroupRange;
  readonly maxParallelism: number;
  readonly subtaskIndex: number;
  readonly parallelism: number;
}

/** One chained operator's state to restore. */
export interface OperatorRestore {
  /** Encoded `OperatorSnapshot`s: the subtask's own, or, when rescaling, one per old subtask. */
  readonly parts: readonly Uint8Array[];
  readonly rescale: Rescale | undefined;
}

/** What one subtask of a restored job starts from. */
export interface TaskRestore {
  /** Every old subtask of every vertex of the task had finished: this one is not run again. */
  readonly finished: boolean;
  /** Reader splits (source tasks): its own, or a round-robin share of every old subtask's. */
  readonly splits: readonly SerializedValue[] | undefined;
  /** Sink writer state, shared out as splits are. */
  readonly writerState: readonly SerializedValue[] | undefined;
  /** One per chained operator, in chain order; undefined for an operator the checkpoint holds no state of. */
  readonly operators: readonly (OperatorRestore | undefined)[];
  /** Rows in flight at an unaligned checkpoint (`TaskSnapshot.inFlight`), processed first. */
  readonly inFlight?: Uint8Array;
}

export interface RestoringTask {
  readonly id: string;
  readonly name: string;
  readonly parallelism: number;
  readonly chain: readonly ChainedVertex[];
  /**
   * How the task's input `i` is partitioned over its subtasks (every edge into input `i`): how rows that were in
   * flight at an unaligned checkpoint are shared out when the task is restored at another parallelism.
   */
  readonly inputs?: ReadonlyMap<number, readonly Partitioner[]>;
}

/**
 * Maps a checkpoint's vertex snapshots onto the subtasks of the job being started, vertex by vertex, so
 * that a task restores whichever vertices it chains now. A vertex at the parallelism it was checkpointed
 * with restores subtask by subtask; one at another parallelism (or any keyed vertex of a checkpoint
 * written before key groups, whose keys were spread another way) gives each new subtask every old
 * snapshot to pick its key groups from, and shares splits and writer state out round-robin (as Flink
 * redistributes operator list state).
 */
export function planTaskRestores(cp: CompletedCheckpoint, tasks: readonly RestoringTask[], maxParallelism: number): Map<string, TaskRestore> {
  const out = new Map<string, TaskRestore>();
  for (const t of tasks) {
    const vertices = t.chain.map((v, k) => vertexRestores(cp, v, t, maxParallelism, k === 0));
    if (vertices.every((v) => v === undefined)) continue;
    for (let i = 0; i < t.parallelism; i++) {
      const parts = vertices.map((v) => v?.[i]);
      if (parts.every((p) => p === undefined)) continue;
      const head = parts[0];
      const last = parts[parts.length - 1];
      const finished = parts.every((p) => p?.finished === true);
      const restore: TaskRestore = {
        finished,
        splits: head?.splits,
        writerState: last?.writerState,
        operators: finished ? [] : parts.flatMap((p, k) => p?.operators ?? new Array<undefined>(t.chain[k]!.operators).fill(undefined)),
      };
      // Rows in flight entered at the task's head; a vertex chained behind another never has any.
      out.set(`${t.id}#${i}`, head?.inFlight === undefined || finished ? restore : { ...restore, inFlight: head.inFlight });
    }
  }
  return out;
}

/** One vertex's part of a subtask's restore; `operators` has one entry per operator of the vertex. */
type VertexRestore = TaskRestore;

/** Subtask by subtask, what one vertex restores from (undefined: the checkpoint has no state of it). */
function vertexRestores(
  cp: CompletedCheckpoint,
  v: ChainedVertex,
  t: RestoringTask,
  maxParallelism: number,
  head: boolean,
): (VertexRestore | undefined)[] | undefined {
  const oldP = cp.parallelism.get(v.id);
  if (oldP === undefined) return undefined;
  const old: TaskSnapshot[] = [];
  for (let i = 0; i < oldP; i++) {
    const s = cp.vertices.get(`${v.id}#${i}`);
    if (s !== undefined) old.push(s);
  }
  if (old.length === 0) return undefined;
  const ops = (f: (op: number) => OperatorRestore | undefined): (OperatorRestore | undefined)[] => Array.from({ length: v.operators }, (_, op) => f(op));
  const sameLayout = oldP === t.parallelism && (cp.maxParallelism !== undefined || oldP === 1);
  if (sameLayout) {
    return Array.from({ length: t.parallelism }, (_, i) => {
      const s = cp.vertices.get(`${v.id}#${i}`);
      if (s === undefined) return undefined;
      const same: VertexRestore = {
        finished: s.finished,
        splits: s.splits,
        writerState: s.writerState,
        operators: ops((op) => (s.operators[op] === undefined ? undefined : { parts: [snapshotBytes(s.operators[op]!)], rescale: undefined })),
      };
      return s.inFlight === undefined ? same : { ...same, inFlight: s.inFlight };
    });
  }
  if (t.parallelism > maxParallelism) {
    throw new ValidationError(
      `Cannot restore '${t.name}' with parallelism ${t.parallelism}: the checkpoint's state is split into ${maxParallelism} key groups ('pipeline.max-parallelism'), so ${maxParallelism} is the highest parallelism it can be restored at.`,
    );
  }
  const finished = old.every((s) => s.finished);
  const live = old.filter((s) => !s.finished);
  const splits = live.flatMap((s) => s.splits ?? []);
  const writerState = live.flatMap((s) => s.writerState ?? []);
  const anyWriterState = live.some((s) => s.writerState !== undefined);
  const inFlight = live.some((s) => s.inFlight !== undefined) ? shareInFlight(cp, t, live, oldP, maxParallelism, head) : undefined;
  return Array.from({ length: t.parallelism }, (_, i) => {
    const rescale: Rescale = { keyGroups: keyGroupRange(maxParallelism, t.parallelism, i), maxParallelism, subtaskIndex: i, parallelism: t.parallelism };
    const mine = inFlight?.[i];
    return {
      ...(mine === undefined ? {} : { inFlight: mine }),
      finished,
      splits: finished ? [] : share(splits, i, t.parallelism),
      writerState: finished || !anyWriterState ? undefined : share(writerState, i, t.parallelism),
      operators: finished
        ? ops(() => undefined)
        : ops((op) => {
            const parts = live.flatMap((s) => (s.operators[op] === undefined ? [] : [snapshotBytes(s.operators[op]!)]));
            return parts.length === 0 ? undefined : { parts, rescale };
          }),
    };
  });
}

/**
 * The rows in flight of an unaligned checkpoint, shared out over the subtasks of a task restored at another
 * parallelism: a keyed input's rows by key group, as the producers would send them now. They entered at the
 * head of the task; a vertex that is no longer at the head (chained otherwise now) has nowhere to enter them.
 */
function shareInFlight(
  cp: CompletedCheckpoint,
  t: RestoringTask,
  live: readonly TaskSnapshot[],
  oldP: number,
  maxParallelism: number,
  head: boolean,
): (Uint8Array | undefined)[] {
  const refuse = (why: string): ValidationError =>
    new ValidationError(
      `Cannot restore '${t.name}' with parallelism ${t.parallelism}: checkpoint ${cp.checkpointId} is unaligned and holds rows that were in flight to its ${oldP} subtasks, and ${why}. Restore it with parallelism ${oldP}, or from a savepoint (savepoints are always aligned).`,
    );
  if (!head) throw refuse(`'${t.name}' chains the operator that received them behind another now, where they cannot enter`);
  if (t.inputs === undefined) throw refuse('how its inputs are partitioned is not known');
  const shared = redistributeInFlight(
    live.flatMap((s) => (s.inFlight === undefined ? [] : [s.inFlight])),
    t.inputs,
    t.parallelism,
    maxParallelism,
  );
  if (typeof shared === 'string') throw refuse(shared);
  return shared;
}

/** Elements i, i + n, i + 2n, ... of `all`. */
function share<T>(all: readonly T[], i: number, n: number): T[] {
  const mine: T[] = [];
  for (let j = i; j < all.length; j += n) mine.push(all[j]!);
  return mine;
}

/** The snapshot a restored finished subtask reports in later checkpoints. */
export const FINISHED_TASK: TaskSnapshot = { finished: true, splits: [], operators: [], writerState: undefined };
