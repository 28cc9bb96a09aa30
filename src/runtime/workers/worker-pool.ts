import type { Worker } from 'node:worker_threads';
import { acquireWorker, releaseWorker } from './idle-workers.js';
import { ConnectorError, ExecutionError, PlanningError, type SluiceError, ValidationError } from '../../errors/sluice-error.js';
import type { Attempt } from '../attempt.js';
import type { SerializedValue } from '../checkpoint/completed-checkpoint.js';
import type { WorkerRecipe } from '../job-graph.js';
import type { ReaderEvent } from '../source/source-coordinator.js';
import type { TaskHandle, TaskMetrics, TaskVertex } from '../task-host.js';
import { resolveWorkerEntry } from './worker-entry.js';
import { applySubtaskReport, subtaskStopped } from './worker-metrics.js';
import type { ChannelPlan, FromWorker, SubtaskPlan, ToWorker, WireError } from './worker-protocol.js';

/** How long a worker may take to close its subtasks at the end of an attempt before it is terminated. */
const END_ATTEMPT_GRACE_MS = 30_000;

let prepareIds = 0;

/** What one worker is to run in an attempt. */
export interface WorkerDeployment {
  readonly subtasks: SubtaskPlan[];
  readonly channels: ChannelPlan[];
}

interface Slot {
  readonly index: number;
  worker: Worker | undefined;
  /** Why the worker stopped, once it did. */
  dead: string | undefined;
  ended: Map<number, () => void>;
  /** Resolves when the worker reported that it started its subtasks of the attempt deployed last. */
  started: (() => void) | undefined;
  /** Removes the listeners this pool added to the worker. */
  detach: (() => void) | undefined;
}

/**
 * The workers of one job (main thread side). They are started once, when the job's first attempt is
 * deployed, and build the job graph from its recipe; each attempt deploys subtasks into them, and a
 * worker that died is replaced before the next attempt. `close` hands them back for the next job (idle-workers.ts).
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private attempt: Attempt | undefined;
  private readonly remotes = new Map<string, RemoteTask>();
  private entry: URL | undefined;

  private constructor(
    private readonly jobName: string,
    private readonly recipe: WorkerRecipe,
    private readonly signature: string,
    count: number,
    private readonly graph: { readonly tasks: readonly TaskVertex[] },
    private readonly metrics: ReadonlyMap<string, TaskMetrics>,
  ) {
    for (let i = 0; i < count; i++) this.slots.push({ index: i, worker: undefined, dead: 'not started', ended: new Map(), started: undefined, detach: undefined });
  }

  /**
   * Starts `count` workers and has each build the graph from `recipe`. Rejects (after terminating
   * them) when a worker cannot build it or builds a different graph than `signature`.
   */
  static async start(
    jobName: string,
    recipe: WorkerRecipe,
    signature: string,
    count: number,
    graph: { readonly tasks: readonly TaskVertex[] },
    metrics: ReadonlyMap<string, TaskMetrics>,
  ): Promise<WorkerPool> {
    const pool = new WorkerPool(jobName, recipe, signature, count, graph, metrics);
    try {
      await pool.ensureLive();
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Replaces workers that died (or were never started) and waits until each built the graph. */
  async ensureLive(): Promise<void> {
    const entry = (this.entry ??= resolveWorkerEntry(this.recipe.entry));
    await Promise.all(this.slots.filter((s) => s.dead !== undefined).map((s) => this.spawn(s, entry)));
  }

  private spawn(slot: Slot, entry: URL): Promise<void> {
    const w = acquireWorker(entry, `sluice ${this.jobName} #${slot.index}`);
    slot.worker = w;
    slot.dead = undefined;
    const id = ++prepareIds;
    return new Promise<void>((resolve, reject) => {
      let prepared = false;
      const fail = (reason: string, error?: Error): void => {
        if (slot.worker !== w) return;
        slot.dead = reason;
        slot.worker = undefined;
        slot.started?.();
        slot.started = undefined;
        for (const r of slot.ended.values()) r();
        slot.ended.clear();
        if (!prepared) reject(error ?? new ExecutionError(reason));
        else this.workerDied(slot.index, reason);
      };
      const onMessage = (m: FromWorker): void => {
        if ((m.kind === 'prepared' || m.kind === 'prepare-failed') && m.id !== id) return;
        if (m.kind === 'prepared') {
          if (m.signature !== this.signature) {
            fail('it built a different job graph than the main thread');
            void w.terminate();
            return;
          }
          prepared = true;
          resolve();
        } else if (m.kind === 'prepare-failed') {
          fail(`it could not build the job: ${m.error.message}`, fromWireError(m.error));
          void w.terminate();
        } else {
          this.onMessage(slot, m);
        }
      };
      const onError = (e: Error): void => fail(`worker thread ${slot.index} failed: ${e.message}`, e);
      const onExit = (code: number): void => fail(`worker thread ${slot.index} exited with code ${code}`);
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      slot.detach = () => {
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
      };
      w.postMessage({ kind: 'prepare', id, payload: this.recipe.payload } satisfies ToWorker);
    });
  }

  private workerDied(index: number, reason: string): void {
    const a = this.attempt;
    if (a === undefined) return;
    const error = new ExecutionError(`A worker thread of job '${this.jobName}' stopped: ${reason}.`);
    for (const r of this.remotes.values()) {
      if (r.worker !== index) continue;
      this.stopped(r.key);
      r.settle(error);
    }
    a.fail(error);
  }

  /** A proxy for subtask `index` of `task`, run in worker `worker`, that the attempt drives as any task. */
  remoteTask(a: Attempt, task: TaskVertex, index: number, worker: number): RemoteTask {
    const r = new RemoteTask(this, a.attempt, `${task.id}#${index}`, index, worker, task.source !== undefined);
    this.remotes.set(r.key, r);
    return r;
  }

  /**
   * Sends each worker its subtasks and channel ends of attempt `a` (ports are transferred). The promise
   * resolves once every worker started them (or stopped): see `JobMaster.runAttempt`.
   */
  deploy(a: Attempt, jobId: string, maxParallelism: number, plans: readonly WorkerDeployment[]): Promise<void> {
    this.attempt = a;
    const started: Promise<void>[] = [];
    plans.forEach((p, i) => {
      const slot = this.slots[i]!;
      const w = slot.worker;
      if (w === undefined) throw new ExecutionError(`A worker thread of job '${this.jobName}' is not running: ${slot.dead}.`);
      started.push(new Promise<void>((resolve) => (slot.started = resolve)));
      const ports = p.channels.flatMap((c) => [c.out, c.in].filter((x) => x !== undefined));
      const config = { ...a.config };
      w.postMessage(
        {
          kind: 'deploy', attempt: a.attempt, jobId, config, restoredCheckpointId: a.restoredCheckpointId, maxParallelism,
          subtasks: p.subtasks, channels: p.channels,
        } satisfies ToWorker,
        ports,
      );
    });
    return Promise.all(started).then(() => undefined);
  }

  send(worker: number, m: ToWorker): void {
    this.slots[worker]?.worker?.postMessage(m);
  }

  /** Ends attempt `attempt` in every worker: subtasks canceled and closed, ports closed. */
  async endAttempt(attempt: number): Promise<void> {
    await Promise.all(
      this.slots.map(async (s) => {
        const w = s.worker;
        if (w === undefined) return;
        let timer: NodeJS.Timeout | undefined;
        const ended = new Promise<void>((resolve) => {
          s.ended.set(attempt, resolve);
          timer = setTimeout(() => {
            // A worker stuck in a subtask is replaced rather than waited for forever.
            void w.terminate();
            resolve();
          }, END_ATTEMPT_GRACE_MS);
        });
        w.postMessage({ kind: 'end-attempt', attempt } satisfies ToWorker);
        await ended;
        clearTimeout(timer);
      }),
    );
    for (const key of this.remotes.keys()) this.stopped(key);
    this.remotes.clear();
    if (this.attempt?.attempt === attempt) this.attempt = undefined;
  }

  /** A remote subtask no longer runs: its last report may have left a busy interval open that no report will close. */
  private stopped(key: string): void {
    const m = this.metrics.get(key);
    if (m !== undefined) subtaskStopped(m);
  }

  /** The job ended: its live workers (every attempt ended in them) wait idle for the next job of this process. */
  async close(): Promise<void> {
    for (const s of this.slots) {
      const w = s.worker;
      s.worker = undefined;
      s.dead = 'closed';
      s.detach?.();
      s.detach = undefined;
      if (w !== undefined && this.entry !== undefined) releaseWorker(this.entry, w);
    }
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    if (m.kind === 'metrics') {
      for (const r of m.subtasks) {
        const t = this.metrics.get(r.key);
        if (t) applySubtaskReport(t, r);
      }
      return;
    }
    if (m.kind === 'started') {
      if (m.attempt === this.attempt?.attempt) {
        slot.started?.();
        slot.started = undefined;
      }
      return;
    }
    if (m.kind === 'attempt-ended') {
      slot.ended.get(m.attempt)?.();
      slot.ended.delete(m.attempt);
      return;
    }
    const a = this.attempt;
    if (m.kind === 'prepared' || m.kind === 'prepare-failed' || a === undefined || m.attempt !== a.attempt) return;
    switch (m.kind) {
      case 'ack':
        a.acknowledge(m.key, m.checkpointId, m.snapshot, m.committables, m.alignmentMs);
        return;
      case 'finished':
        a.finished(m.key, m.snapshot, m.committables);
        return;
      case 'task-done':
        this.remotes.get(m.key)?.settle(m.error === undefined ? undefined : fromWireError(m.error));
        return;
      case 'failed':
        a.fail(fromWireError(m.error));
        return;
      case 'register-reader': {
        const key = `${m.taskId}#${m.subtask}`;
        const source = this.graph.tasks.find((t) => t.id === m.taskId)!.source!;
        a.sourceCoordinator(m.taskId).registerReader(m.subtask, {
          deliver: (e: ReaderEvent) => {
            const ser = source.getSplitSerializer();
            const event =
              e.kind === 'splits' ? { kind: 'splits' as const, splits: e.splits.map((s): SerializedValue => ({ version: ser.version, data: ser.serialize(s) })) } : e;
            this.send(slot.index, { kind: 'reader-event', attempt: a.attempt, key, event });
          },
        });
        return;
      }
      case 'unregister-reader':
        a.sourceCoordinator(m.taskId).unregisterReader(m.subtask);
        return;
      case 'request-split':
        a.sourceCoordinator(m.taskId).requestSplit(m.subtask);
        return;
      case 'source-event':
        a.sourceCoordinator(m.taskId).sourceEventFromReader(m.subtask, m.event);
        return;
      default: {
        const never: never = m;
        throw new Error(`unknown message ${String(never)}`);
      }
    }
  }
}

/** A subtask running in a worker, as the attempt on the main thread sees it. */
export class RemoteTask implements TaskHandle {
  private settleRun: ((e: Error | undefined) => void) | undefined;
  private readonly result: Promise<void>;
  private settled = false;
  readonly triggerCheckpoint: ((checkpointId: number, suspend?: boolean, savepoint?: boolean) => void) | undefined;

  constructor(
    private readonly pool: WorkerPool,
    private readonly attempt: number,
    readonly key: string,
    readonly subtaskIndex: number,
    readonly worker: number,
    isSource: boolean,
  ) {
    this.result = new Promise<void>((resolve, reject) => {
      this.settleRun = (e) => (e === undefined ? resolve() : reject(e));
    });
    this.result.catch(() => undefined);
    this.triggerCheckpoint = isSource
      ? (checkpointId, suspend = false, savepoint = false) => pool.send(worker, { kind: 'trigger', attempt, key, checkpointId, suspend, savepoint })
      : undefined;
  }

  run(): Promise<void> {
    return this.result;
  }

  settle(e: Error | undefined): void {
    if (this.settled) return;
    this.settled = true;
    this.settleRun?.(e);
  }

  cancel(): void {
    if (!this.settled) this.pool.send(this.worker, { kind: 'cancel', attempt: this.attempt, key: this.key });
  }

  notifyCheckpointComplete(checkpointId: number): void {
    this.pool.send(this.worker, { kind: 'checkpoint-complete', attempt: this.attempt, key: this.key, checkpointId });
  }
}

const SLUICE_ERRORS: Record<string, new (message: string) => SluiceError> = {
  ValidationError,
  PlanningError,
  ConnectorError,
  ExecutionError,
};

/** An error from a worker as the job master handles a local one: Sluice errors keep their class. */
export function fromWireError(w: WireError): Error {
  const ctor = SLUICE_ERRORS[w.name];
  const e: Error = ctor ? new ctor(w.message) : new Error(w.message);
  if (!ctor) e.name = w.name;
  if (w.stack !== undefined) e.stack = w.stack;
  if (w.suppressRestarts) (e as { suppressRestarts?: boolean }).suppressRestarts = true;
  return e;
}
