import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ExecutionError, SluiceError, ValidationError } from '../errors/sluice-error.js';
import type { Row } from '../types/row.js';
import { buildTaskGraph, type TaskGraph } from './chaining.js';
import { Channel, poolUsage, type QueueUsage } from './channel.js';
import { pruneCheckpoints, readCheckpoint, savepointPath, writeCheckpoint } from './checkpoint/checkpoint-storage.js';
import type { CompletedCheckpoint, PendingCommittable, SerializedValue, TaskSnapshot } from './checkpoint/completed-checkpoint.js';
import type { Partitioner } from './partitioner.js';
import { FINISHED_TASK, planTaskRestores, type RestoringTask, type TaskRestore } from './checkpoint/task-restore.js';
import { toVertexLayout } from './checkpoint/task-layout.js';
import { claimState, claimingVertices } from './checkpoint/unclaimed-state.js';
import { sinkVertexOf, vertexSnapshots } from './checkpoint/vertex-state.js';
import { UPPER_BOUND_MAX_PARALLELISM } from './key-groups.js';
import { CommitterRunner } from './committer-runner.js';
import { InputStreamTask, type InputChannel } from './input-stream-task.js';
import type { JobGraph, WorkerRecipe } from './job-graph.js';
import { CHECKPOINT_HISTORY_SIZE, type CheckpointStats, type JobClient, type JobExecutionResult, type JobMetrics, type JobStatus, type RestoredCheckpointStats, type SubtaskMetrics } from './job-client.js';
import { RecordWriter } from './record-writer.js';
import { RestartStrategy } from './restart-strategy.js';
import type { RuntimeConfig } from './runtime-config.js';
import { suppressesRestarts } from './sink/lost-committable.js';
import type { AnySink } from './sink/sink.js';
import { SourceCoordinator } from './source/source-coordinator.js';
import { SourceStreamTask } from './source-stream-task.js';
import { TaskCanceled } from './stream-task.js';
import type { TaskMetrics, TaskVertex } from './task-host.js';
import { ExceptionHistory } from './exception-history.js';
import { Attempt, type AttemptOwner, type AttemptOutcome, type PendingCheckpoint } from './attempt.js';
import type { OutputChannel } from './channel.js';
import { graphSignature, MAIN_THREAD, threadOf, workerCount } from './workers/placement.js';
import { remoteChannelCapacity } from './workers/remote-capacity.js';
import { RemoteInputChannel, RemoteOutputChannel } from './workers/remote-channel.js';
import { WorkerPool, type WorkerDeployment } from './workers/worker-pool.js';
import { MessageChannel } from 'node:worker_threads';
import { inMemory, removeSpilledOf, snapshotLength } from './checkpoint/spilled-snapshot.js';

/** What a job reports besides its status: warnings for the user (e.g. why it runs on one thread). */
export interface JobHooks {
  warn?(message: string): void;
}

/** A 32-hex-character job id, as Flink's `JobID`. */
export function generateJobId(): string {
  return randomBytes(16).toString('hex');
}

/** See `JobMaster.latest`. */
type LatestCheckpoint =
  | { readonly checkpointId: number; readonly checkpoint: CompletedCheckpoint }
  | { readonly checkpointId: number; readonly path: string; readonly checkpoint: undefined };

/** Owns a job across attempts: deploys tasks, restarts from checkpoints, commits, reports status. */
export class JobMaster implements JobClient, AttemptOwner {
  readonly jobId: string;
  readonly jobName: string;
  readonly graph: TaskGraph;
  nextCheckpointId = 1;
  private jobStatus: JobStatus = 'CREATED';
  /**
   * The newest completed checkpoint, which a restart restores. One written to files is held by its path and
   * read back on a restart: its state (gigabytes for a large keyed state) is not kept in memory between
   * checkpoints. One not written (no checkpoint directory) is held whole.
   */
  private latest: LatestCheckpoint | undefined;
  /** The source subtasks' `numBytesIn` at `latest`'s barrier (see `PendingCheckpoint.bytesIn`). */
  private latestBytesIn: ReadonlyMap<string, number> | undefined;
  /** Task id -> bytes of its state in the newest completed checkpoint (see `VertexMetrics.stateSizeBytes`). */
  private stateSizes: ReadonlyMap<string, number> | undefined;
  private pendingCommittables: PendingCommittable[] = [];
  private attempt: Attempt | undefined;
  private attemptNo = 0;
  private restarts = 0;
  private completed = 0;
  private failedCheckpoints = 0;
  /** Newest first, at most CHECKPOINT_HISTORY_SIZE. */
  private readonly checkpointHistory: CheckpointStats[] = [];
  private lastCheckpointStats: CheckpointStats | undefined;
  private readonly exceptions: ExceptionHistory;
  private restored: RestoredCheckpointStats | undefined;
  private cancelRequested = false;
  private readonly startedAt = Date.now();
  /** Per subtask (`<task id>#<index>`), kept across attempts; summed per task by metrics(). */
  private readonly taskMetrics = new Map<string, TaskMetrics>();
  /** The current attempt's channel ends on this thread per subtask, read only by metrics() for queue occupancy. */
  private subtaskChannels = new Map<string, { inputs: QueueUsage[]; outputs: QueueUsage[] }>();
  private readonly result: Promise<JobExecutionResult>;
  private readonly sinks = new Map<string, { name: string; sink: AnySink<Row> }>();
  private committerRunner: CommitterRunner | undefined;
  /** The number of key groups of keyed state and hash exchanges (`pipeline.max-parallelism`, or the restored checkpoint's). */
  private maxParallelism: number;

  /** The job's worker threads (`execution.worker-threads`), started with the first attempt. */
  private pool: WorkerPool | undefined;
  /** Main-thread ends of exchanges with workers, closed when their attempt ends. */
  private remotePorts: Array<{ close(): void }> = [];

  constructor(private readonly jobGraph: JobGraph, readonly config: RuntimeConfig, private readonly hooks: JobHooks = {}) {
    if (jobGraph.jobId !== undefined && !/^[0-9a-f]{32}$/.test(jobGraph.jobId)) {
      throw new ValidationError(`Job id '${jobGraph.jobId}' is not valid: expected 32 lowercase hexadecimal characters.`);
    }
    this.jobId = jobGraph.jobId ?? generateJobId();
    this.jobName = jobGraph.jobName;
    this.graph = buildTaskGraph(jobGraph);
    this.exceptions = new ExceptionHistory(this.graph);
    this.maxParallelism = config.maxParallelism;
    if (config.runtimeMode === 'batch') {
      for (const v of jobGraph.vertices) {
        if (v.kind === 'source' && v.source.boundedness() !== 'BOUNDED') {
          throw new ValidationError(`Querying an unbounded table '${v.name}' in batch mode is not allowed. The table source is unbounded.`);
        }
      }
    }
    for (const t of this.graph.tasks) {
      for (let i = 0; i < t.parallelism; i++) this.taskMetrics.set(`${t.id}#${i}`, { recordsIn: 0, recordsOut: 0, currentInputWatermark: -Infinity });
      // Keyed by the sink's vertex, as its committables are (a change of chaining changes the task id).
      if (t.sink) this.sinks.set(sinkVertexOf(t), { name: t.name, sink: t.sink });
    }
    this.result = this.run();
    this.result.catch(() => undefined);
  }

  status(): JobStatus {
    return this.jobStatus;
  }

  waitForCompletion(): Promise<JobExecutionResult> {
    return this.result;
  }

  metrics(): JobMetrics {
    return {
      vertices: this.graph.tasks.map((t) => {
        const subtasks = Array.from({ length: t.parallelism }, (_, i) => this.subtaskMetrics(`${t.id}#${i}`));
        return {
          vertexId: t.id, name: t.name, parallelism: t.parallelism,
          recordsIn: subtasks.reduce((n, s) => n + s.recordsIn, 0), recordsOut: subtasks.reduce((n, s) => n + s.recordsOut, 0),
          inputs: this.graph.edges.filter((e) => e.to === t.id).map((e) => ({ vertexId: e.from, shipStrategy: e.partitioner.kind })),
          subtasks,
          unassignedBytes: t.source === undefined ? undefined : this.attempt?.coordinators.get(t.id)?.pendingBytes(),
          stateSizeBytes: this.stateSizes?.get(t.id),
        };
      }),
      completedCheckpoints: this.completed,
      lastCheckpointId: this.latest?.checkpointId,
      restarts: this.restarts,
      failedCheckpoints: this.failedCheckpoints,
      lastCheckpointDurationMs: this.lastCheckpointStats?.durationMs,
      lastCheckpointSizeBytes: this.lastCheckpointStats?.sizeBytes,
      checkpointHistory: [...this.checkpointHistory],
      exceptionHistory: this.exceptions.history,
      exceptionHistoryTruncated: this.exceptions.truncated,
      restoredCheckpoint: this.restored,
    };
  }

  private subtaskMetrics(key: string): SubtaskMetrics {
    const m = this.taskMetrics.get(key)!;
    const ch = this.subtaskChannels.get(key);
    const wm = m.currentInputWatermark ?? -Infinity;
    // A worker's subtask reports its channels' usage; a main-thread subtask's channels are here.
    const reported = m.poolUsage?.();
    return {
      recordsIn: m.recordsIn, recordsOut: m.recordsOut, currentInputWatermark: wm === -Infinity ? undefined : wm,
      inPoolUsage: reported?.inPool ?? poolUsage(ch?.inputs), outPoolUsage: reported?.outPool ?? poolUsage(ch?.outputs),
      pendingRecords: gauge(m.pendingRecords),
      pendingBytes: gauge(m.pendingBytes),
      bytesIn: m.bytesIn,
      busyTimeMs: openInterval(m.busyMs, m.busySince),
      backPressuredTimeMs: openInterval(m.backPressuredMs, m.backPressuredSince),
    };
  }

  /** Counted as `completed` is: periodic checkpoints and savepoints, not the final checkpoint of a job without them. */
  private counts(pc: PendingCheckpoint): boolean {
    return pc.isSavepoint || this.config.checkpointIntervalMs !== undefined;
  }

  private recordCheckpoint(stats: CheckpointStats): void {
    this.checkpointHistory.unshift(stats);
    this.checkpointHistory.length = Math.min(this.checkpointHistory.length, CHECKPOINT_HISTORY_SIZE);
  }

  checkpointFailed(pc: PendingCheckpoint, reason: unknown): void {
    // A commit that fails after the checkpoint was persisted fails the attempt, not the checkpoint.
    if (!this.counts(pc) || this.checkpointHistory.some((c) => c.id === pc.id)) return;
    this.failedCheckpoints++;
    this.recordCheckpoint({
      id: pc.id, status: 'FAILED', isSavepoint: pc.isSavepoint, triggerTimestamp: pc.triggeredAt, durationMs: Date.now() - pc.triggeredAt,
      sizeBytes: undefined, path: undefined, failureMessage: reason instanceof Error ? reason.message : String(reason),
    });
  }

  async cancel(): Promise<void> {
    if (this.jobStatus === 'FINISHED' || this.jobStatus === 'FAILED' || this.jobStatus === 'CANCELED') return;
    this.cancelRequested = true;
    this.attempt?.end({ kind: 'canceled' });
    await this.result.catch(() => undefined);
  }

  triggerSavepoint(dir: string): Promise<string> {
    return this.savepoint(dir, false);
  }

  private async savepoint(dir: string, stop: boolean): Promise<string> {
    const a = this.attempt;
    if (!a || this.jobStatus !== 'RUNNING') throw new ExecutionError(`Job ${this.jobId} is not running; cannot take a savepoint.`);
    if (stop) a.stopTimers();
    while (a.pending || a.completing) {
      await a.pending?.done.catch(() => undefined);
      await a.completing;
      a.completing = undefined;
    }
    const cp = await a.trigger(true, savepointPath(dir, this.jobId), stop).done;
    return cp.path!;
  }

  async stopWithSavepoint(dir: string): Promise<string> {
    const path = await this.savepoint(dir, true);
    this.pendingCommittables = await this.commitRunner().commit(this.pendingCommittables, Infinity);
    this.attempt?.end({ kind: 'stopped', savepoint: path });
    await this.result;
    return path;
  }

  private commitRunner(): CommitterRunner {
    return (this.committerRunner ??= new CommitterRunner(this.sinks));
  }

  private async run(): Promise<JobExecutionResult> {
    try {
      return await this.runJob();
    } finally {
      await this.pool?.close();
      this.pool = undefined;
    }
  }

  /**
   * Workers for this job when `execution.worker-threads` asks for them and the job has subtasks to
   * spread; undefined (with a warning saying why, when the option is on) to run on the main thread.
   */
  private async startWorkers(): Promise<WorkerPool | undefined> {
    const count = workerCount(this.config.workerThreads, this.graph);
    const pinned = this.config.workerThreads === 'off' ? [] : this.graph.tasks.filter((t) => t.mainThread !== undefined && t.parallelism > 1);
    if (count === 0 && pinned.length === 0) return undefined;
    const recipe = this.jobGraph.workerRecipe;
    let why: string | undefined;
    if (recipe === undefined) why = 'it was not built from SQL statements a worker can replay';
    else if (typeof recipe === 'string') why = recipe;
    else {
      const aligned = this.graph.tasks.find((t) => t.watermarkStrategy?.alignment !== undefined);
      if (aligned) why = `source '${aligned.name}' uses watermark alignment, which needs one thread`;
    }
    let pool: WorkerPool | undefined;
    if (why === undefined && count > 0) {
      try {
        pool = await WorkerPool.start(this.jobName, recipe as WorkerRecipe, graphSignature(this.graph), count, this.graph, this.taskMetrics);
      } catch (e) {
        why = `a worker thread could not build the job (${e instanceof Error ? e.message : String(e)})`;
      }
    }
    if (why !== undefined) this.hooks.warn?.(`'execution.worker-threads' is on, but job '${this.jobName}' runs on the main thread: ${why}.`);
    else if (pinned.length > 0) this.hooks.warn?.(pinnedWarning(this.jobName, pinned, pool !== undefined, (recipe as WorkerRecipe).mainThreadAdvice));
    return pool;
  }

  private async runJob(): Promise<JobExecutionResult> {
    await Promise.resolve();
    let restore: CompletedCheckpoint | undefined;
    try {
      // Checked once, before any attempt: every restart would refuse the same state again.
      restore = await this.readRestorePath((m) => this.hooks.warn?.(m));
      // A restored job keeps the key groups its state was split into; a checkpoint from before key groups
      // had none, and its keyed state is regrouped on restore.
      this.maxParallelism = restore?.maxParallelism ?? this.config.maxParallelism;
      // Checked once, before any attempt: a restart would only repeat the same refusal forever.
      this.validateParallelism();
    } catch (e) {
      this.jobStatus = 'FAILED';
      throw e;
    }
    this.pool = await this.startWorkers();
    this.jobStatus = 'RUNNING';
    const strategy = new RestartStrategy(this.config.restartStrategy);
    for (;;) {
      // A cancel that came while there was no attempt to end (the restore path being read, workers starting) ends the
      // job here; checked synchronously before runAttempt, which makes its attempt the one a later cancel ends.
      if (this.cancelRequested) {
        this.jobStatus = 'CANCELED';
        return { jobId: this.jobId, status: 'CANCELED', netRuntimeMs: Date.now() - this.startedAt, restarts: this.restarts, savepointPath: undefined };
      }
      const outcome = await this.runAttempt(restore);
      // Not held while the attempt runs: a restart reads its checkpoint again (see `latest`).
      restore = undefined;
      if (!(outcome instanceof Error)) {
        this.jobStatus = outcome.kind === 'canceled' ? 'CANCELED' : 'FINISHED';
        return {
          jobId: this.jobId,
          status: outcome.kind === 'canceled' ? 'CANCELED' : 'FINISHED',
          netRuntimeMs: Date.now() - this.startedAt,
          restarts: this.restarts,
          savepointPath: outcome.kind === 'stopped' ? outcome.savepoint : undefined,
        };
      }
      if (!this.cancelRequested) this.exceptions.record(outcome, this.attempt?.failedTask);
      const delay = this.cancelRequested || suppressesRestarts(outcome) ? undefined : strategy.onFailure();
      if (delay === undefined) {
        this.jobStatus = this.cancelRequested ? 'CANCELED' : 'FAILED';
        if (this.cancelRequested) {
          return { jobId: this.jobId, status: 'CANCELED', netRuntimeMs: Date.now() - this.startedAt, restarts: this.restarts, savepointPath: undefined };
        }
        throw outcome instanceof SluiceError
          ? outcome
          : new ExecutionError(`Job '${this.jobName}' (${this.jobId}) failed: ${outcome.message}`, { cause: outcome });
      }
      this.restarts++;
      await new Promise((r) => setTimeout(r, delay));
      if (this.cancelRequested) {
        this.jobStatus = 'CANCELED';
        return { jobId: this.jobId, status: 'CANCELED', netRuntimeMs: Date.now() - this.startedAt, restarts: this.restarts, savepointPath: undefined };
      }
      try {
        restore = await this.restartCheckpoint();
      } catch (e) {
        this.jobStatus = 'FAILED';
        throw e;
      }
    }
  }

  /** The checkpoint `execution.savepoint.path` names, as this job's vertices claim it; undefined without one. */
  private async readRestorePath(warn: (m: string) => void): Promise<CompletedCheckpoint | undefined> {
    if (!this.config.restorePath) return undefined;
    const stored = await readCheckpoint(this.config.restorePath);
    const vertexLayout = stored.layout === 'task' ? toVertexLayout(stored, this.graph) : stored;
    return claimState(vertexLayout, claimingVertices(this.jobGraph.vertices, this.graph.tasks.map((t) => t.chain)), {
      path: this.config.restorePath,
      ignoreUnclaimed: this.config.ignoreUnclaimedState,
      warn,
    });
  }

  /** What a restart restores: the newest completed checkpoint, else the one the job was started from. */
  private async restartCheckpoint(): Promise<CompletedCheckpoint | undefined> {
    const latest = this.latest;
    if (latest === undefined) return this.readRestorePath(() => {});
    if (latest.checkpoint !== undefined) return latest.checkpoint;
    const stored = await readCheckpoint(latest.path);
    if (stored.layout !== 'vertex') throw new ExecutionError(`Checkpoint '${latest.path}' was written by this job but reads back in an older layout.`);
    return stored;
  }

  /**
   * Sets each source subtask's `numBytesIn` to what it had consumed at the checkpoint the attempt restores
   * (0 without one, or for a checkpoint read from files, which does not hold the counters), so bytes read
   * after that checkpoint and read again now are counted once. Flink counts per attempt: its new attempt
   * starts at 0 and re-reads, so it never counts a byte twice either; starting from the checkpoint's count
   * instead keeps bytes consumed plus bytes left equal to the input's size, which a progress bar needs.
   */
  private restoreBytesIn(restore: CompletedCheckpoint | undefined): void {
    const counted = restore !== undefined && restore.checkpointId === this.latest?.checkpointId && !restore.isSavepoint ? this.latestBytesIn : undefined;
    for (const [key, m] of this.taskMetrics) {
      if (m.bytesIn !== undefined || counted?.has(key)) m.bytesIn = counted?.get(key);
    }
  }

  bytesInOf(taskKey: string): number | undefined {
    return this.taskMetrics.get(taskKey)?.bytesIn;
  }

  /** The graph's tasks with their inputs' partitioners, which share out an unaligned checkpoint's rows in flight on a rescale. */
  private restoringTasks(): RestoringTask[] {
    return this.graph.tasks.map((t) => {
      const inputs = new Map<number, Partitioner[]>();
      for (const e of this.graph.edges) if (e.to === t.id) inputs.set(e.inputIndex, [...(inputs.get(e.inputIndex) ?? []), e.partitioner]);
      return { ...t, inputs };
    });
  }

  private validateParallelism(): void {
    const maxP = this.maxParallelism;
    if (!Number.isInteger(maxP) || maxP < 1 || maxP > UPPER_BOUND_MAX_PARALLELISM) {
      throw new ValidationError(`'pipeline.max-parallelism' must be between 1 and ${UPPER_BOUND_MAX_PARALLELISM}, but is ${maxP}.`);
    }
    for (const t of this.graph.tasks) {
      if (t.parallelism > maxP) {
        throw new ValidationError(
          `The parallelism of '${t.name}' (${t.parallelism}) is higher than 'pipeline.max-parallelism' (${maxP}${this.config.restorePath ? `, kept from the checkpoint being restored` : ''}): keyed state is split into that many key groups, so no operator can have more subtasks.`,
        );
      }
    }
  }

  private async runAttempt(restore: CompletedCheckpoint | undefined): Promise<AttemptOutcome | Error> {
    const a = new Attempt(this, this.attemptNo++, restore?.checkpointId);
    this.attempt = a;
    const runs: Promise<void>[] = [];
    try {
      if (restore) {
        this.nextCheckpointId = Math.max(this.nextCheckpointId, restore.checkpointId + 1);
      }
      this.restored = restore && { id: restore.checkpointId, isSavepoint: restore.isSavepoint, restoreTimestamp: Date.now(), path: restore.path };
      // Committables of checkpoints after the restored one belong to replayed data: drop them.
      this.pendingCommittables = restore ? [...restore.committables] : [];
      await this.pool?.ensureLive();
      this.restoreBytesIn(restore);
      const workersStarted = this.deploy(a, restore === undefined ? undefined : planTaskRestores(restore, this.restoringTasks(), this.maxParallelism));
      for (const [taskId, coord] of a.coordinators) {
        const e = restore?.enumerators.get(taskId);
        const src = this.graph.tasks.find((t) => t.id === taskId)!.source!;
        await coord.start(e === undefined ? undefined : src.getEnumeratorCheckpointSerializer().deserialize(e.version, e.data));
      }
      // Re-commit what the restored checkpoint had prepared (committers are idempotent).
      if (this.pendingCommittables.length > 0) this.pendingCommittables = await this.commitRunner().commit(this.pendingCommittables, Infinity);
      // The main thread's subtasks start once the workers started theirs: a source subtask here opens its
      // reader and produces its first batch in one go (80-110 ms for nexmark), and a worker's split request
      // arriving meanwhile would wait for it, holding the worker's start back by as much.
      await Promise.race([workersStarted, a.outcome]);
      for (const t of a.tasks) {
        const key = t.key;
        if (a.finishedTasks.has(key)) continue;
        runs.push(t.run().catch((e: unknown) => a.fail(e, key)));
      }
      a.scheduleCheckpoint();
      if (a.finishedTasks.size === a.taskCount) a.end({ kind: 'finished' });
      const outcome = await a.outcome;
      a.stopTimers();
      if (outcome instanceof Error) return outcome;
      if (outcome.kind === 'finished') {
        a.abortPending('The job finished while the checkpoint was in progress.');
        await Promise.all(runs);
        await a.completing;
        if (a.completionError !== undefined) {
          return a.completionError instanceof Error ? a.completionError : new Error(String(a.completionError));
        }
        // A final checkpoint of the finished tasks holds the end-of-input committables, so a failing
        // commit restarts from it (re-committing) instead of replaying input that was already committed.
        try {
          await a.trigger(false, undefined).done;
        } catch (e) {
          return e instanceof Error ? e : new Error(String(e));
        }
        if (this.pendingCommittables.length > 0) {
          return new ExecutionError(`${this.pendingCommittables.length} committable(s) could not be committed when the job finished.`);
        }
      }
      return outcome;
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    } finally {
      a.stopTimers();
      a.abortPending('The job attempt ended.');
      for (const t of a.tasks) t.cancel();
      await Promise.allSettled(runs);
      // A checkpoint every task acknowledged may still be being written: it completes (or fails) before a
      // restart reads the newest one back, and before its pruning of older ones could race that read.
      await a.completing;
      await this.pool?.endAttempt(a.attempt);
      for (const p of this.remotePorts) p.close();
      this.remotePorts = [];
      for (const c of a.coordinators.values()) await c.close().catch(() => undefined);
      await this.committerRunner?.close();
      this.committerRunner = undefined;
    }
  }

  /**
   * Creates channels, tasks and coordinators of one attempt; restored finished tasks are not run. With
   * workers, subtasks placed in a worker are proxies here and the worker builds them (and the channels
   * between its own subtasks); a channel between two threads is a port pair. Resolves once every worker
   * started its subtasks.
   */
  private deploy(a: Attempt, restore: ReadonlyMap<string, TaskRestore> | undefined): Promise<void> {
    const cap = this.config.channelCapacity;
    const remoteCap = remoteChannelCapacity(cap);
    const pool = this.pool;
    const workers = pool?.size ?? 0;
    const plans: WorkerDeployment[] = [];
    for (let w = 0; w < workers; w++) plans.push({ subtasks: [], channels: [] });
    const inputs = new Map<string, InputChannel[]>();
    const outputs = new Map<string, RecordWriter[]>();
    const inputTasks = new Map<string, InputStreamTask>();
    const consumers = new Map<string, InputStreamTask>();
    const channels = new Map<string, { inputs: QueueUsage[]; outputs: QueueUsage[] }>();
    const channelsOf = (key: string) => channels.get(key) ?? channels.set(key, { inputs: [], outputs: [] }).get(key)!;
    for (const t of this.graph.tasks) {
      for (let i = 0; i < t.parallelism; i++) outputs.set(`${t.id}#${i}`, []);
    }
    for (const t of this.graph.tasks) {
      for (let i = 0; i < t.parallelism; i++) {
        const key = `${t.id}#${i}`;
        const snap = restore?.get(key);
        const thread = threadOf(t, i, workers);
        if (snap?.finished) a.finishedTasks.set(key, FINISHED_TASK);
        const metrics = this.taskMetrics.get(key)!;
        // A new attempt starts without a watermark (a worker's subtask reports its own); its records add to the earlier attempts'.
        metrics.currentInputWatermark = -Infinity;
        if (thread !== MAIN_THREAD) {
          plans[thread]!.subtasks.push({ taskId: t.id, index: i, restore: snap });
          a.tasks.push(pool!.remoteTask(a, t, i, thread));
          continue;
        }
        const task = t.source
          ? new SourceStreamTask(a, t, i, outputs.get(key)!, snap, metrics)
          : new InputStreamTask(a, t, i, outputs.get(key)!, snap, metrics);
        if (task instanceof InputStreamTask) {
          inputTasks.set(key, task);
          consumers.set(key, task);
        }
        a.tasks.push(task);
      }
    }
    const addInput = (key: string, c: InputChannel): void => {
      (inputs.get(key) ?? inputs.set(key, []).get(key)!).push(c);
    };
    this.graph.edges.forEach((e, edge) => {
      const from = this.graph.tasks.find((t) => t.id === e.from)!;
      const to = this.graph.tasks.find((t) => t.id === e.to)!;
      for (let i = 0; i < from.parallelism; i++) {
        const pf = threadOf(from, i, workers);
        const targets = e.partitioner.kind === 'forward' ? [i] : [...Array(to.parallelism).keys()];
        const chs: OutputChannel[] = [];
        for (const j of targets) {
          const pt = threadOf(to, j, workers);
          const toKey = `${to.id}#${j}`;
          if (pf === MAIN_THREAD && pt === MAIN_THREAD) {
            const ch = new Channel(cap, consumers.get(toKey)!.onData);
            addInput(toKey, { channel: ch, inputIndex: e.inputIndex });
            channelsOf(`${from.id}#${i}`).outputs.push(ch);
            channelsOf(toKey).inputs.push(ch);
            chs.push(ch);
          } else if (pf === pt) {
            plans[pf]!.channels.push({ edge, from: i, to: j });
          } else {
            const mc = new MessageChannel();
            if (pf === MAIN_THREAD) {
              const out = new RemoteOutputChannel(mc.port1, remoteCap);
              this.remotePorts.push(out);
              channelsOf(`${from.id}#${i}`).outputs.push(out);
              chs.push(out);
            } else plans[pf]!.channels.push({ edge, from: i, to: j, out: mc.port1 });
            if (pt === MAIN_THREAD) {
              const inp = new RemoteInputChannel(mc.port2, remoteCap, consumers.get(toKey)!.onData);
              this.remotePorts.push(inp);
              channelsOf(toKey).inputs.push(inp);
              addInput(toKey, { channel: inp, inputIndex: e.inputIndex });
            } else plans[pt]!.channels.push({ edge, from: i, to: j, in: mc.port2 });
          }
        }
        if (pf === MAIN_THREAD) outputs.get(`${from.id}#${i}`)!.push(new RecordWriter(chs, e.partitioner, this.maxParallelism));
      }
    });
    for (const [key, task] of inputTasks) task.setInputs(inputs.get(key) ?? []);
    this.subtaskChannels = channels;
    for (const t of this.graph.tasks) {
      if (t.source) a.coordinators.set(t.id, new SourceCoordinator(t.name, t.source, t.parallelism, (e) => a.fail(e)));
    }
    // A task that had finished before the checkpoint only signals the end of its outputs (workers do so for theirs).
    for (const key of a.finishedTasks.keys()) {
      for (const w of outputs.get(key) ?? []) {
        w.broadcastElement({ kind: 'watermark', watermark: Infinity });
        w.broadcastElement({ kind: 'end' });
      }
    }
    return pool?.deploy(a, this.jobId, this.maxParallelism, plans) ?? Promise.resolve();
  }

  /** Called when every task acknowledged: persist, then notify and commit. */
  async completeCheckpoint(a: Attempt, pc: PendingCheckpoint): Promise<CompletedCheckpoint> {
    const acknowledgedMs = Date.now() - pc.triggeredAt;
    const parallelism = new Map(this.graph.tasks.flatMap((t) => t.chain.map((v) => [v.id, t.parallelism] as [string, number])));
    const committables = [...this.pendingCommittables, ...pc.committables];
    let path: string | undefined = pc.target;
    if (!path && this.config.checkpointDir && this.config.runtimeMode === 'streaming') path = join(this.config.checkpointDir, this.jobId, `chk-${pc.id}`);
    const vertices = vertexSnapshots(pc.acks, this.graph.tasks);
    // Kept in memory without a directory to write it to: operator states spilled at the barrier are read back.
    if (path === undefined) for (const [k, v] of vertices) vertices.set(k, inMemory(v));
    const cp: CompletedCheckpoint = {
      jobId: this.jobId, checkpointId: pc.id, isSavepoint: pc.isSavepoint, timestamp: Date.now(), parallelism, maxParallelism: this.maxParallelism,
      layout: 'vertex', enumerators: pc.enumerators, committables, vertices, path,
      vertexNames: new Map(this.jobGraph.vertices.map((v) => [v.id, v.name])),
    };
    const jobDir = this.config.checkpointDir === undefined ? undefined : join(this.config.checkpointDir, this.jobId);
    let size: number | undefined;
    try {
      // A delta (incremental checkpoints) builds on checkpoints in the job's directory; a savepoint gets it merged.
      size = path ? await writeCheckpoint(path, cp, { checkpointsDir: jobDir }) : undefined;
    } finally {
      // Copied into the checkpoint (or failed to be): the spilled files are no longer needed either way.
      removeSpilledOf(pc.acks.values());
    }
    if (a !== this.attempt) throw new TaskCanceled();
    if (this.counts(pc)) {
      const stats: CheckpointStats = {
        id: pc.id, status: 'COMPLETED', isSavepoint: pc.isSavepoint, triggerTimestamp: pc.triggeredAt, durationMs: Date.now() - pc.triggeredAt,
        sizeBytes: size, path, failureMessage: undefined, alignmentMs: pc.alignmentMs, acknowledgedMs,
      };
      this.recordCheckpoint(stats);
      if (!pc.isSavepoint) this.lastCheckpointStats = stats;
    }
    this.pendingCommittables = committables;
    if (pc.isSavepoint) return cp;
    this.latest = path === undefined ? { checkpointId: cp.checkpointId, checkpoint: cp } : { checkpointId: cp.checkpointId, path, checkpoint: undefined };
    this.latestBytesIn = pc.bytesIn;
    this.stateSizes = stateSizes(pc.acks);
    // The final checkpoint of a job without periodic checkpoints is an implementation detail.
    if (this.config.checkpointIntervalMs !== undefined) this.completed++;
    if (path && this.config.checkpointDir && !pc.isSavepoint) {
      const sb = this.config.stateBackend;
      await pruneCheckpoints(join(this.config.checkpointDir, this.jobId), this.config.checkpointsRetained, { incremental: sb.type === 'lmdb' && sb.incremental === true });
    }
    for (const t of a.tasks) if (!a.finishedTasks.has(t.key)) t.notifyCheckpointComplete(pc.id);
    for (const c of a.coordinators.values()) c.notifyCheckpointComplete(pc.id);
    this.pendingCommittables = await this.commitRunner().commit(this.pendingCommittables, pc.id);
    return cp;
  }
}

/**
 * Runs a job graph in this process and returns at once with a handle on it.
 * Throws a `ValidationError` synchronously for an invalid graph (and, in batch mode, an unbounded source).
 */
export function executeJob(graph: JobGraph, config: RuntimeConfig, hooks: JobHooks = {}): JobClient {
  return new JobMaster(graph, config, hooks);
}

/** Bytes of each task's snapshots in a checkpoint, summed over its subtasks, by task id. */
function stateSizes(acks: ReadonlyMap<string, TaskSnapshot>): Map<string, number> {
  const sizes = new Map<string, number>();
  const bytes = (values: readonly SerializedValue[] | undefined): number => (values ?? []).reduce((n, v) => n + v.data.byteLength, 0);
  for (const [key, snap] of acks) {
    const taskId = key.slice(0, key.lastIndexOf('#'));
    const size = snap.operators.reduce((n, o) => n + snapshotLength(o), 0) + bytes(snap.splits) + bytes(snap.writerState);
    sizes.set(taskId, (sizes.get(taskId) ?? 0) + size);
  }
  return sizes;
}

/** A time counter with its open interval so far; undefined when the subtask has not measured it yet (a worker's, before its first report). */
function openInterval(ms: number | undefined, since: number | undefined): number | undefined {
  if (ms === undefined && since === undefined) return undefined;
  return (ms ?? 0) + (since === undefined ? 0 : performance.now() - since);
}

/** A reader's gauge must not break monitoring: a reader that throws reads as unknown. */
function gauge(read: (() => number | undefined) | undefined): number | undefined {
  try {
    return read?.();
  } catch {
    return undefined;
  }
}

/**
 * The one warning of a job whose parallel operators partly stay on the main thread (a function registered in
 * code): which, why, and how to have them run on workers. Tasks of one subtask are left out: the main thread
 * runs subtask 0 anyway.
 */
function pinnedWarning(jobName: string, pinned: readonly TaskVertex[], workers: boolean, advice: string | undefined): string {
  const which = pinned.map((t) => t.mainThread).join('; ');
  const rest = workers ? 'the rest of the job runs on worker threads' : 'nothing else in the job runs in parallel, so no worker thread is used';
  return `'execution.worker-threads' is on, but in job '${jobName}' these operators run all their subtasks on the main thread: ${which}. ${rest[0]!.toUpperCase()}${rest.slice(1)}.${advice === undefined ? '' : ` ${advice}`}`;
}
