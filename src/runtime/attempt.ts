import { ExecutionError } from '../errors/sluice-error.js';
import { createAlignmentRegistry } from './alignment-registry.js';
import type { TaskGraph } from './chaining.js';
import type { CompletedCheckpoint, PendingCommittable, SerializedValue, TaskSnapshot } from './checkpoint/completed-checkpoint.js';
import { sinkVertexOf, taskOfVertex } from './checkpoint/vertex-state.js';
import type { RuntimeConfig } from './runtime-config.js';
import type { SourceCoordinator } from './source/source-coordinator.js';
import { TaskCanceled } from './stream-task.js';
import type { AlignmentRegistry, TaskHandle, TaskHost } from './task-host.js';
import { removeSpilledOf } from './checkpoint/spilled-snapshot.js';

/** What an attempt needs from the job that owns it. */
export interface AttemptOwner {
  readonly jobId: string;
  readonly config: RuntimeConfig;
  readonly graph: TaskGraph;
  /** The next checkpoint id; ids keep increasing across attempts and restores. */
  nextCheckpointId: number;
  /** A source subtask's `numBytesIn` now (`<task id>#<index>`); undefined while its reader counted none. */
  bytesInOf(taskKey: string): number | undefined;
  /** Persists a checkpoint every task acknowledged, then notifies and commits. */
  completeCheckpoint(a: Attempt, pc: PendingCheckpoint): Promise<CompletedCheckpoint>;
  /** A checkpoint was aborted (timeout, attempt ended) or could not be completed; for statistics only. */
  checkpointFailed(pc: PendingCheckpoint, reason: unknown): void;
}

export interface PendingCheckpoint {
  readonly id: number;
  readonly isSavepoint: boolean;
  readonly target: string | undefined;
  /** Epoch milliseconds of the trigger, for its duration. */
  readonly triggeredAt: number;
  readonly acks: Map<string, TaskSnapshot>;
  /**
   * Each source subtask's `numBytesIn` when it took its snapshot: what a restore from this checkpoint starts
   * the counter from, so bytes read after the barrier and read again after the restore count once. Kept in
   * memory only (a checkpoint restored from its files starts the counters at 0, as Flink's new attempt does).
   */
  readonly bytesIn: Map<string, number>;
  readonly committables: PendingCommittable[];
  readonly enumerators: Map<string, SerializedValue>;
  /** The longest a task waited from the checkpoint's first barrier to its last, in ms (Flink's alignment duration). */
  alignmentMs: number;
  readonly done: Promise<CompletedCheckpoint>;
  resolve(cp: CompletedCheckpoint): void;
  reject(e: unknown): void;
  timer: NodeJS.Timeout | undefined;
}

export type AttemptOutcome = { kind: 'finished' } | { kind: 'canceled' } | { kind: 'stopped'; savepoint: string };

/** Runs one attempt of a job: its tasks, coordinators and checkpoints. Discarded on failure. */
export class Attempt implements TaskHost {
  readonly tasks: TaskHandle[] = [];
  readonly coordinators = new Map<string, SourceCoordinator>();
  readonly finishedTasks = new Map<string, TaskSnapshot>();
  /** End-of-input committables not yet part of a checkpoint. */
  looseCommittables: PendingCommittable[] = [];
  pending: PendingCheckpoint | undefined;
  /** A checkpoint that every task acknowledged and that is being written / committed. */
  completing: Promise<unknown> | undefined;
  /** Why completing a checkpoint failed (e.g. a commit failed for an unknown reason), if it did. */
  completionError: unknown = undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastCompletedAt = 0;
  private settle!: (o: AttemptOutcome | Error) => void;
  readonly outcome = new Promise<AttemptOutcome | Error>((r) => (this.settle = r));
  private settled = false;
  readonly alignment: AlignmentRegistry;

  constructor(
    private readonly jm: AttemptOwner,
    readonly attempt: number,
    readonly restoredCheckpointId: number | undefined,
  ) {
    this.alignment = createAlignmentRegistry();
  }

  get jobId(): string {
    return this.jm.jobId;
  }
  get config(): RuntimeConfig {
    return this.jm.config;
  }

  sourceCoordinator(taskId: string): SourceCoordinator {
    return this.coordinators.get(taskId)!;
  }

  end(o: AttemptOutcome | Error): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(o);
  }

  /** The subtask (`<task id>#<index>`) whose failure ended this attempt, if one did. */
  failedTask: string | undefined;

  /** Ends the attempt with `e` unless it ended already; `taskKey` names the subtask that failed, if one did. */
  fail(e: unknown, taskKey?: string): void {
    if (e instanceof TaskCanceled) return;
    if (!this.settled) this.failedTask = taskKey;
    this.end(e instanceof Error ? e : new Error(String(e)));
  }

  get taskCount(): number {
    return this.jm.graph.tasks.reduce((n, t) => n + t.parallelism, 0);
  }

  // --- checkpoints ---

  scheduleCheckpoint(): void {
    const interval = this.config.checkpointIntervalMs;
    if (interval === undefined || this.config.runtimeMode === 'batch' || this.settled || this.timersStopped) return;
    const delay = Math.max(interval, this.lastCompletedAt + this.config.checkpointMinPauseMs - Date.now());
    this.timer = setTimeout(() => {
      if (this.pending || this.settled || this.timersStopped) return;
      this.trigger(false, undefined).done.then(
        () => this.scheduleCheckpoint(),
        () => this.scheduleCheckpoint(),
      );
    }, delay);
  }

  private timersStopped = false;

  stopTimers(): void {
    this.timersStopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  trigger(isSavepoint: boolean, target: string | undefined, suspend = false): PendingCheckpoint {
    if (suspend) this.stopTimers();
    if (this.pending) throw new ExecutionError('A checkpoint is already in progress.');
    const id = this.jm.nextCheckpointId++;
    let resolve!: (cp: CompletedCheckpoint) => void, reject!: (e: unknown) => void;
    const done = new Promise<CompletedCheckpoint>((a, b) => ((resolve = a), (reject = b)));
    done.catch(() => undefined);
    const pc: PendingCheckpoint = {
      id, isSavepoint, target, triggeredAt: Date.now(), acks: new Map(), bytesIn: new Map(), committables: [], enumerators: new Map(), alignmentMs: 0, done, resolve, reject, timer: undefined,
    };
    this.pending = pc;
    pc.timer = setTimeout(() => this.abort(pc, new ExecutionError(`Checkpoint ${id} expired before completing.`)), this.config.checkpointTimeoutMs);
    // The enumerators first, then the valves close, then the barriers: see SourceCoordinator.
    for (const [taskId, coord] of this.coordinators) {
      const running = this.tasks.filter((t) => t.triggerCheckpoint !== undefined && t.key.startsWith(`${taskId}#`) && !this.finishedTasks.has(t.key));
      const state = coord.snapshotAndCloseValves(id, running.map((t) => t.subtaskIndex));
      const ser = this.jm.graph.tasks.find((t) => t.id === taskId)!.source!.getEnumeratorCheckpointSerializer();
      pc.enumerators.set(taskId, { version: ser.version, data: ser.serialize(state) });
    }
    for (const [key, snap] of this.finishedTasks) {
      pc.acks.set(key, snap);
      this.countBytesIn(pc, key);
    }
    pc.committables.push(...this.looseCommittables.map((c) => ({ ...c, checkpointId: id })));
    this.looseCommittables = [];
    for (const t of this.tasks) if (!this.finishedTasks.has(t.key)) t.triggerCheckpoint?.(id, suspend, isSavepoint);
    this.maybeComplete(pc);
    return pc;
  }

  private abort(pc: PendingCheckpoint, e: unknown): void {
    if (this.pending !== pc) return;
    this.pending = undefined;
    clearTimeout(pc.timer);
    // End-of-input committables must not be lost with the aborted checkpoint.
    this.looseCommittables.push(...pc.committables.filter((c) => this.finishedTasks.has(`${taskOfVertex(this.jm.graph, c.sinkId)?.id}#${c.subtaskIndex}`)));
    for (const c of this.coordinators.values()) c.notifyCheckpointAborted(pc.id);
    removeSpilledOf(pc.acks.values());
    this.jm.checkpointFailed(pc, e);
    pc.reject(e);
  }

  abortPending(reason: string): void {
    if (this.pending) this.abort(this.pending, new ExecutionError(reason));
  }

  acknowledge(taskKey: string, checkpointId: number, snapshot: TaskSnapshot, committables: SerializedValue[], alignmentMs = 0): void {
    const pc = this.pending;
    if (!pc || pc.id !== checkpointId) {
      // A late acknowledgement of an aborted checkpoint: its spilled state goes with it.
      removeSpilledOf([snapshot]);
      return;
    }
    pc.acks.set(taskKey, snapshot);
    this.countBytesIn(pc, taskKey);
    pc.alignmentMs = Math.max(pc.alignmentMs, alignmentMs);
    const [taskId, sub] = splitKey(taskKey);
    const sinkId = this.sinkOf(taskId);
    for (const value of committables) pc.committables.push({ checkpointId, sinkId, subtaskIndex: sub, value, retries: 0 });
    this.coordinators.get(taskId)?.openValve(sub);
    this.maybeComplete(pc);
  }

  /**
   * Notes the subtask's bytes read as of its snapshot. A subtask acknowledges on its own turn right after
   * snapshotting its reader, before it reads on (a worker's subtask sends its metrics just before its
   * acknowledgement), so the counter read here is the one at the barrier.
   */
  private countBytesIn(pc: PendingCheckpoint, taskKey: string): void {
    const n = this.jm.bytesInOf(taskKey);
    if (n !== undefined) pc.bytesIn.set(taskKey, n);
  }

  finished(taskKey: string, snapshot: TaskSnapshot, committables: SerializedValue[]): void {
    this.finishedTasks.set(taskKey, snapshot);
    const [taskId, sub] = splitKey(taskKey);
    const pc = this.pending;
    if (pc && !pc.acks.has(taskKey)) {
      this.acknowledge(taskKey, pc.id, snapshot, committables);
    } else {
      const sinkId = this.sinkOf(taskId);
      for (const value of committables) this.looseCommittables.push({ checkpointId: -1, sinkId, subtaskIndex: sub, value, retries: 0 });
      this.coordinators.get(taskId)?.openValve(sub);
    }
    if (this.finishedTasks.size === this.taskCount) this.end({ kind: 'finished' });
  }

  /** Committables are kept under their sink's vertex id, which a change of chaining does not change. */
  private sinkOf(taskId: string): string {
    const t = this.jm.graph.tasks.find((x) => x.id === taskId);
    return t === undefined ? taskId : sinkVertexOf(t);
  }

  private maybeComplete(pc: PendingCheckpoint): void {
    if (pc.acks.size < this.taskCount || this.pending !== pc) return;
    this.pending = undefined;
    clearTimeout(pc.timer);
    const completing = this.jm.completeCheckpoint(this, pc);
    this.completing = completing.then(
      () => undefined,
      (e: unknown) => {
        if (!(e instanceof TaskCanceled)) this.completionError ??= e;
      },
    );
    completing.then(
      (cp) => {
        this.lastCompletedAt = Date.now();
        pc.resolve(cp);
      },
      (e: unknown) => {
        if (!(e instanceof TaskCanceled)) this.jm.checkpointFailed(pc, e);
        pc.reject(e);
        this.fail(e);
      },
    );
  }
}

export function splitKey(key: string): [string, number] {
  const i = key.lastIndexOf('#');
  return [key.slice(0, i), Number(key.slice(i + 1))];
}

