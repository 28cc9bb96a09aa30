import { ValidationError } from '../../errors/sluice-error.js';
import { keyGroupRange, type KeyGroupRange } from '../key-groups.js';
import type { CompletedCheckpoint, SerializedValue, TaskSnapshot } from './completed-checkpoint.js';

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
  /** Every old subtask had finished: this one is not run again. */
  readonly finished: boolean;
  /** Reader splits (source tasks): its own, or a round-robin share of every old subtask's. */
  readonly splits: readonly SerializedValue[] | undefined;
  /** Sink writer state, shared out as splits are. */
  readonly writerState: readonly SerializedValue[] | undefined;
  /** One per chained operator, in chain order. */
  readonly operators: readonly OperatorRestore[];
}

export interface RestoringTask {
  readonly id: string;
  readonly name: string;
  readonly parallelism: number;
}

/**
 * Maps a checkpoint's subtask snapshots onto the subtasks of the job being started. A task at the
 * parallelism it was checkpointed with restores subtask by subtask; one at another parallelism (or any
 * keyed task of a checkpoint written before key groups, whose keys were spread another way) gives each
 * new subtask every old snapshot to pick its key groups from, and shares splits and writer state out
 * round-robin (as Flink redistributes operator list state).
 */
export function planTaskRestores(cp: CompletedCheckpoint, tasks: readonly RestoringTask[], maxParallelism: number): Map<string, TaskRestore> {
  const out = new Map<string, TaskRestore>();
  for (const t of tasks) {
    const oldP = cp.parallelism.get(t.id);
    if (oldP === undefined) continue;
    const old: TaskSnapshot[] = [];
    for (let i = 0; i < oldP; i++) {
      const s = cp.tasks.get(`${t.id}#${i}`);
      if (s !== undefined) old.push(s);
    }
    if (old.length === 0) continue;
    const sameLayout = oldP === t.parallelism && (cp.maxParallelism !== undefined || oldP === 1);
    if (sameLayout) {
      for (let i = 0; i < t.parallelism; i++) {
        const s = cp.tasks.get(`${t.id}#${i}`);
        if (s === undefined) continue;
        out.set(`${t.id}#${i}`, {
          finished: s.finished,
          splits: s.splits,
          writerState: s.writerState,
          operators: s.operators.map((bytes) => ({ parts: [bytes], rescale: undefined })),
        });
      }
      continue;
    }
    if (t.parallelism > maxParallelism) {
      throw new ValidationError(
        `Cannot restore '${t.name}' with parallelism ${t.parallelism}: the checkpoint's state is split into ${maxParallelism} key groups ('pipeline.max-parallelism'), so ${maxParallelism} is the highest parallelism it can be restored at.`,
      );
    }
    const finished = old.every((s) => s.finished);
    const live = old.filter((s) => !s.finished);
    const chainLength = Math.max(0, ...live.map((s) => s.operators.length));
    const splits = live.flatMap((s) => s.splits ?? []);
    const writerState = live.flatMap((s) => s.writerState ?? []);
    const anyWriterState = live.some((s) => s.writerState !== undefined);
    for (let i = 0; i < t.parallelism; i++) {
      const rescale: Rescale = { keyGroups: keyGroupRange(maxParallelism, t.parallelism, i), maxParallelism, subtaskIndex: i, parallelism: t.parallelism };
      out.set(`${t.id}#${i}`, {
        finished,
        splits: finished ? [] : share(splits, i, t.parallelism),
        writerState: finished || !anyWriterState ? undefined : share(writerState, i, t.parallelism),
        operators: finished
          ? []
          : Array.from({ length: chainLength }, (_, op) => ({ parts: live.flatMap((s) => (s.operators[op] === undefined ? [] : [s.operators[op]!])), rescale })),
      });
    }
  }
  return out;
}

/** Elements i, i + n, i + 2n, ... of `all`. */
function share<T>(all: readonly T[], i: number, n: number): T[] {
  const mine: T[] = [];
  for (let j = i; j < all.length; j += n) mine.push(all[j]!);
  return mine;
}

/** The snapshot a restored finished subtask reports in later checkpoints. */
export const FINISHED_TASK: TaskSnapshot = { finished: true, splits: [], operators: [], writerState: undefined };
