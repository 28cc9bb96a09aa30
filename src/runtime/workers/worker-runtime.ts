import { parentPort, type MessagePort } from 'node:worker_threads';
import { createAlignmentRegistry } from '../alignment-registry.js';
import { buildTaskGraph, type TaskGraph } from '../chaining.js';
import { Channel, type OutputChannel, poolUsage, type QueueUsage } from '../channel.js';
import type { SerializedValue, TaskSnapshot } from '../checkpoint/completed-checkpoint.js';
import { InputStreamTask, type InputChannel } from '../input-stream-task.js';
import type { JobGraph } from '../job-graph.js';
import { RecordWriter } from '../record-writer.js';
import type { RuntimeConfig } from '../runtime-config.js';
import type { ReaderEvent, ReaderGateway } from '../source/source-coordinator.js';
import { SourceStreamTask } from '../source-stream-task.js';
import { TaskCanceled, type StreamTask } from '../stream-task.js';
import type { AlignmentRegistry, ReaderCoordinator, TaskHost, TaskMetrics } from '../task-host.js';
import { graphSignature } from './placement.js';
import { RemoteInputChannel, RemoteOutputChannel } from './remote-channel.js';
import { remoteChannelCapacity } from './remote-capacity.js';
import { SubtaskReporter } from './worker-metrics.js';
import { toWireError, type FromWorker, type ToWorker, type WireReaderEvent } from './worker-protocol.js';

/** How often a worker reports its subtasks' counters and gauges to the job master. */
const METRICS_INTERVAL_MS = 500;

/**
 * The body of a worker thread: builds the job graph from the recipe's payload once, then runs the
 * subtasks the job master deploys into it, attempt after attempt. Call it from the worker entry module.
 */
export function runWorker(buildGraph: (payload: unknown) => Promise<JobGraph>): void {
  const port = parentPort;
  if (port === null) throw new Error('runWorker must be called in a worker thread');
  new WorkerRuntime(port as unknown as MessagePort, buildGraph);
}

class WorkerRuntime {
  private graph: TaskGraph | undefined;
  private current: WorkerAttempt | undefined;
  private readonly metrics = new Map<string, TaskMetrics>();
  private readonly reporter = new SubtaskReporter();
  /** Prepares run one after another, so the graph is always the last job's. */
  private preparing: Promise<void> = Promise.resolve();

  constructor(
    private readonly port: MessagePort,
    private readonly buildGraph: (payload: unknown) => Promise<JobGraph>,
  ) {
    port.on('message', (m: ToWorker) => {
      this.handle(m).catch((e: unknown) => this.post({ kind: 'failed', attempt: 'attempt' in m ? m.attempt : -1, error: toWireError(e) }));
    });
    setInterval(() => this.flushMetrics(), METRICS_INTERVAL_MS).unref();
  }

  post(m: FromWorker, transfer?: ArrayBuffer[]): void {
    this.port.postMessage(m, transfer);
  }

  /**
   * A subtask's metrics for a new attempt: its counters go on, its watermark starts over (as the job
   * master's does at deploy), and the next report carries it even if nothing else changed.
   */
  metricsOf(subtaskKey: string, newAttempt = true): TaskMetrics {
    let m = this.metrics.get(subtaskKey);
    if (!m) this.metrics.set(subtaskKey, (m = { recordsIn: 0, recordsOut: 0 }));
    if (newAttempt) {
      m.currentInputWatermark = -Infinity;
      m.poolUsage = undefined;
      this.reporter.resend(subtaskKey);
    }
    return m;
  }

  flushMetrics(): void {
    const subtasks = this.reporter.reports(this.metrics);
    if (subtasks.length > 0) this.post({ kind: 'metrics', subtasks });
  }

  private async handle(m: ToWorker): Promise<void> {
    switch (m.kind) {
      case 'prepare':
        this.preparing = this.preparing.then(async () => {
          try {
            this.graph = buildTaskGraph(await this.buildGraph(m.payload));
            this.post({ kind: 'prepared', id: m.id, signature: graphSignature(this.graph) });
          } catch (e) {
            this.graph = undefined;
            this.post({ kind: 'prepare-failed', id: m.id, error: toWireError(e) });
          }
        });
        return;
      case 'deploy':
        this.current = new WorkerAttempt(this, this.graph!, m);
        this.current.start();
        return;
      case 'end-attempt': {
        const a = this.current;
        if (a?.attempt === m.attempt) {
          this.current = undefined;
          await a.end();
        }
        this.flushMetrics();
        this.post({ kind: 'attempt-ended', attempt: m.attempt });
        return;
      }
      default: {
        const a = this.current;
        if (a === undefined || a.attempt !== m.attempt) return;
        a.handle(m);
      }
    }
  }
}

/** The subtasks of one attempt that run in this worker. */
class WorkerAttempt implements TaskHost {
  readonly attempt: number;
  readonly jobId: string;
  readonly config: RuntimeConfig;
  readonly restoredCheckpointId: number | undefined;
  readonly alignment: AlignmentRegistry;
  private readonly tasks = new Map<string, StreamTask>();
  private readonly runs: Promise<void>[] = [];
  private readonly ports: Array<{ close(): void }> = [];
  private readonly readers = new Map<string, ReaderGateway>();

  constructor(
    private readonly rt: WorkerRuntime,
    private readonly graph: TaskGraph,
    private readonly plan: Extract<ToWorker, { kind: 'deploy' }>,
  ) {
    this.attempt = plan.attempt;
    this.jobId = plan.jobId;
    this.config = plan.config;
    this.restoredCheckpointId = plan.restoredCheckpointId;
    // Jobs with watermark alignment groups stay on the main thread (worker-pool.ts): a local registry suffices.
    this.alignment = createAlignmentRegistry();
  }

  /** Builds this worker's subtasks and their channels, then runs the subtasks that had not finished. */
  start(): void {
    const g = this.graph;
    const p = this.plan;
    const capacity = p.config.channelCapacity;
    const remoteCapacity = remoteChannelCapacity(capacity);
    const outputs = new Map<string, RecordWriter[]>();
    const finished = new Set<string>();
    const consumers = new Map<string, InputStreamTask>();
    for (const s of p.subtasks) {
      const key = `${s.taskId}#${s.index}`;
      const t = g.tasks.find((x) => x.id === s.taskId)!;
      const outs: RecordWriter[] = [];
      outputs.set(key, outs);
      if (s.restore?.finished) {
        finished.add(key);
        continue;
      }
      const metrics = this.rt.metricsOf(key);
      const task = t.source ? new SourceStreamTask(this, t, s.index, outs, s.restore, metrics) : new InputStreamTask(this, t, s.index, outs, s.restore, metrics);
      this.tasks.set(key, task);
      if (task instanceof InputStreamTask) consumers.set(key, task);
    }
    // Channels grouped per (edge, producer subtask) in consumer order, and per consumer subtask.
    const byProducer = new Map<string, OutputChannel[]>();
    const inputs = new Map<string, InputChannel[]>();
    // The channel ends each subtask here writes to and reads from, for its pool usage gauges.
    const usage = new Map<string, { inputs: QueueUsage[]; outputs: QueueUsage[] }>();
    const usageOf = (key: string) => usage.get(key) ?? usage.set(key, { inputs: [], outputs: [] }).get(key)!;
    const onDataOf = (key: string): (() => void) => consumers.get(key)?.onData ?? (() => undefined);
    for (const c of p.channels) {
      const e = g.edges[c.edge]!;
      const to = `${e.to}#${c.to}`;
      const from = `${e.from}#${c.from}`;
      let out: OutputChannel | undefined;
      if (c.out !== undefined) {
        const r = new RemoteOutputChannel(c.out, remoteCapacity);
        this.ports.push(r);
        usageOf(from).outputs.push(r);
        out = r;
      } else if (c.in !== undefined) {
        const r = new RemoteInputChannel(c.in, remoteCapacity, onDataOf(to));
        this.ports.push(r);
        usageOf(to).inputs.push(r);
        pushTo(inputs, to, { channel: r, inputIndex: e.inputIndex });
      } else {
        const local = new Channel(capacity, onDataOf(to));
        usageOf(from).outputs.push(local);
        usageOf(to).inputs.push(local);
        out = local;
        pushTo(inputs, to, { channel: local, inputIndex: e.inputIndex });
      }
      if (out !== undefined) {
        const k = `${c.edge}/${c.from}`;
        const list = byProducer.get(k) ?? [];
        list[c.to - (e.partitioner.kind === 'forward' ? c.to : 0)] = out;
        byProducer.set(k, list);
      }
    }
    // Each producer subtask gets one writer per outgoing edge, in the graph's edge order (as on the main thread).
    g.edges.forEach((e, idx) => {
      for (const s of p.subtasks) {
        if (s.taskId !== e.from) continue;
        const chs = byProducer.get(`${idx}/${s.index}`);
        if (chs !== undefined) outputs.get(`${e.from}#${s.index}`)!.push(new RecordWriter(chs, e.partitioner, p.maxParallelism));
      }
    });
    for (const [key, task] of consumers) task.setInputs(inputs.get(key) ?? []);
    for (const key of this.tasks.keys()) {
      const u = usageOf(key);
      this.rt.metricsOf(key, false).poolUsage = () => ({ inPool: poolUsage(u.inputs), outPool: poolUsage(u.outputs) });
    }
    // A subtask that had finished before the checkpoint only signals the end of its outputs.
    for (const key of finished) {
      for (const w of outputs.get(key) ?? []) {
        w.broadcastElement({ kind: 'watermark', watermark: Infinity });
        w.broadcastElement({ kind: 'end' });
      }
    }
    for (const [key, task] of this.tasks) {
      this.runs.push(
        task.run().then(
          () => this.done(key, undefined),
          (e: unknown) => this.done(key, e instanceof TaskCanceled ? undefined : e),
        ),
      );
    }
    // On the next turn: the subtasks' first steps (a source registering its reader, requesting a split)
    // ran in this turn's microtasks, and their messages go ahead of this one.
    setImmediate(() => this.rt.post({ kind: 'started', attempt: this.attempt }));
  }

  private done(key: string, error: unknown): void {
    this.rt.flushMetrics();
    this.rt.post({ kind: 'task-done', attempt: this.attempt, key, error: error === undefined ? undefined : toWireError(error) });
  }

  handle(m: Exclude<ToWorker, { kind: 'prepare' | 'deploy' | 'end-attempt' }>): void {
    switch (m.kind) {
      case 'trigger': {
        const t = this.tasks.get(m.key);
        if (t instanceof SourceStreamTask) t.triggerCheckpoint(m.checkpointId, m.suspend, m.savepoint);
        return;
      }
      case 'checkpoint-complete':
        this.tasks.get(m.key)?.notifyCheckpointComplete(m.checkpointId);
        return;
      case 'cancel':
        this.tasks.get(m.key)?.cancel();
        return;
      case 'reader-event': {
        const gw = this.readers.get(m.key);
        const t = this.tasks.get(m.key);
        if (gw === undefined || t === undefined) return;
        gw.deliver(this.readerEvent(t, m.event));
        return;
      }
      default: {
        const never: never = m;
        throw new Error(`unknown message ${String(never)}`);
      }
    }
  }

  private readerEvent(t: StreamTask, e: WireReaderEvent): ReaderEvent {
    if (e.kind !== 'splits') return e;
    const ser = this.graph.tasks.find((x) => t.key.startsWith(`${x.id}#`) && x.source !== undefined)!.source!.getSplitSerializer();
    return { kind: 'splits', splits: e.splits.map((s) => ser.deserialize(s.version, s.data)) };
  }

  /** Cancels what still runs, waits for every subtask to close, and closes the exchange ports. */
  async end(): Promise<void> {
    for (const t of this.tasks.values()) t.cancel();
    await Promise.allSettled(this.runs);
    for (const p of this.ports) p.close();
  }

  // --- TaskHost ---

  acknowledge(taskKey: string, checkpointId: number, snapshot: TaskSnapshot, committables: SerializedValue[], alignmentMs = 0): void {
    // The counters as of the snapshot reach the job master before the acknowledgement (see Attempt.countBytesIn).
    this.rt.flushMetrics();
    this.rt.post({ kind: 'ack', attempt: this.attempt, key: taskKey, checkpointId, snapshot, committables, alignmentMs });
  }

  finished(taskKey: string, snapshot: TaskSnapshot, committables: SerializedValue[]): void {
    this.rt.flushMetrics();
    this.rt.post({ kind: 'finished', attempt: this.attempt, key: taskKey, snapshot, committables });
  }

  sourceCoordinator(taskId: string): ReaderCoordinator {
    const post = (kind: 'register-reader' | 'unregister-reader' | 'request-split', subtask: number): void =>
      this.rt.post({ kind, attempt: this.attempt, taskId, subtask });
    return {
      registerReader: (subtask, gateway) => {
        this.readers.set(`${taskId}#${subtask}`, gateway);
        post('register-reader', subtask);
      },
      unregisterReader: (subtask) => {
        if (this.readers.delete(`${taskId}#${subtask}`)) post('unregister-reader', subtask);
      },
      requestSplit: (subtask) => post('request-split', subtask),
      sourceEventFromReader: (subtask, event) => this.rt.post({ kind: 'source-event', attempt: this.attempt, taskId, subtask, event }),
    };
  }
}

function pushTo<T>(m: Map<string, T[]>, key: string, v: T): void {
  const list = m.get(key);
  if (list) list.push(v);
  else m.set(key, [v]);
}
