import type { Row } from '../types/row.js';
import type { ColumnBatch } from '../types/columns/column-batch.js';
import { HeapOperatorStateStore, type KeyedStateSnapshot } from './state/heap-state-backend.js';
import { createKeyedStateBackend, type KeyedStateBackend, type StateBackendSettings } from './state/keyed-state-backend.js';
import { decodeState, encodeState } from './state/state-codec.js';
import { type OperatorSnapshotBytes, spillSnapshot } from './checkpoint/spilled-snapshot.js';
import type { StateKey } from './state/state.js';
import type { OperatorRestore, Rescale } from './checkpoint/task-restore.js';
import { keyGroupOf } from './key-groups.js';
import { ExecutionError } from '../errors/sluice-error.js';
import { HeapTimerService, type TimersSnapshot } from './heap-timer-service.js';
import type { OperatorContext, OperatorFactory, Output, StreamOperator } from './stream-operator.js';

/** Where the last operator of a chain emits: channels to other tasks, or a sink writer. */
export interface ChainTail {
  collect(rows: Row[]): void;
  /** A columnar batch reached the end of the chain (a sink writer may take it as columns). */
  collectColumns(batch: ColumnBatch): void;
  emitWatermark(watermark: number): void;
}

/** The checkpointed state of one chained operator, decoded. In a checkpoint it is held encoded (bytes). */
export interface OperatorSnapshot {
  /**
   * Set when `keyed` is a delta (incremental checkpoints): the checkpoint it builds on, as `keyed.base`.
   * The first field, so the checkpoint storage reads it without decoding the rest (checkpoint/incremental.ts).
   */
  readonly base?: number;
  readonly raw: unknown;
  readonly keyed: KeyedStateSnapshot;
  readonly operatorState: Array<[string, unknown[]]>;
  readonly timers: TimersSnapshot;
}

/** What the chain needs from its task. */
export interface ChainEnv {
  readonly subtaskIndex: number;
  readonly parallelism: number;
  readonly attemptNumber: number;
  readonly config: ReadonlyMap<string, string>;
  /** `state.backend.type` and its settings; the heap backend when absent. */
  readonly stateBackend?: StateBackendSettings;
  awaitBeforeNextBatch(p: Promise<void>): void;
}

interface Link {
  readonly name: string;
  readonly op: StreamOperator;
  readonly keyed: KeyedStateBackend;
  readonly opState: HeapOperatorStateStore;
  readonly timers: HeapTimerService;
  readonly output: Output;
  watermark: number;
}

/**
 * Operators of one task called directly one after another (Flink's `OperatorChain`). Watermarks walk
 * the chain: at each operator due event-time timers fire first, then the operator sees the watermark.
 */
export class OperatorChain {
  private readonly links: Link[] = [];
  private readonly headInput: (rows: Row[], inputIndex: number) => void;

  constructor(factories: readonly OperatorFactory[], private readonly tail: ChainTail, private readonly env: ChainEnv) {
    for (let i = 0; i < factories.length; i++) {
      const keyed = createKeyedStateBackend(env.stateBackend);
      const next = i + 1;
      const link: Link = {
        name: factories[i]!.name,
        op: factories[i]!.create(),
        keyed,
        opState: new HeapOperatorStateStore(),
        timers: new HeapTimerService(() => keyed.getCurrentKey()),
        output: {
          collect: (rows) => this.forward(next, rows),
          collectColumns: (batch) => this.forwardColumns(next, batch, 0),
          emitWatermark: (wm) => this.advance(next, wm, 0),
        },
        watermark: -Infinity,
      };
      this.links.push(link);
    }
    const first = this.links[0];
    this.headInput = first ? (rows, idx) => first.op.processBatch(rows, idx) : (rows) => this.tail.collect(rows);
  }

  get length(): number {
    return this.links.length;
  }

  /**
   * Restores state, then `initializeState` and `open` on each operator, head first. State comes from
   * encoded bytes only, so every restore (in-process restarts included) gets objects no other attempt
   * has touched.
   */
  async open(restored: readonly (OperatorRestore | undefined)[] | undefined): Promise<void> {
    for (let i = 0; i < this.links.length; i++) {
      const l = this.links[i]!;
      const r = restored?.[i];
      await l.keyed.open?.();
      if (r === undefined) l.op.initializeState?.(undefined);
      else if (r.rescale === undefined) {
        const s = decodeState(r.parts[0]!) as OperatorSnapshot;
        l.keyed.restore(s.keyed);
        l.opState.restore(s.operatorState);
        l.timers.restore(s.timers);
        l.op.initializeState?.(s.raw);
      } else {
        this.restoreRescaled(l, r.parts.map((b) => decodeState(b) as OperatorSnapshot), r.rescale);
      }
      const ctx: OperatorContext = {
        operatorName: l.name,
        subtaskIndex: this.env.subtaskIndex,
        parallelism: this.env.parallelism,
        attemptNumber: this.env.attemptNumber,
        config: this.env.config,
        output: l.output,
        keyedState: l.keyed,
        operatorState: l.opState,
        timerService: l.timers,
        awaitBeforeNextBatch: (p) => this.env.awaitBeforeNextBatch(p),
      };
      await l.op.open(ctx);
    }
  }

  /** This subtask's share of every old subtask's state: the keys of its key groups, a share of list state. */
  private restoreRescaled(l: Link, parts: readonly OperatorSnapshot[], rescale: Rescale): void {
    const { start, end } = rescale.keyGroups;
    const maxP = rescale.maxParallelism;
    const owns = (key: StateKey): boolean => {
      const g = keyGroupOf(key, maxP);
      return g >= start && g <= end;
    };
    l.keyed.restoreRescaled(parts.map((p) => p.keyed), owns);
    for (const p of parts) l.timers.restore(p.timers, owns);
    l.opState.restoreShare(parts.map((p) => p.operatorState), rescale.subtaskIndex, rescale.parallelism);
    const raw = parts.map((p) => p.raw).filter((x) => x !== undefined);
    if (raw.length === 0) l.op.initializeState?.(undefined);
    else if (l.op.initializeRescaledState) l.op.initializeRescaledState(raw, owns);
    else {
      throw new ExecutionError(
        `Operator '${l.name}' cannot be restored at parallelism ${rescale.parallelism}: its state was checkpointed at another parallelism and it cannot redistribute it. Restore it at the parallelism it was checkpointed with.`,
      );
    }
  }

  processBatch(rows: Row[], inputIndex: number): void {
    this.headInput(rows, inputIndex);
  }

  /** A columnar batch from the task's input: columns as far as the chain takes them, then rows. */
  processColumns(batch: ColumnBatch, inputIndex: number): void {
    this.forwardColumns(0, batch, inputIndex);
  }

  private forwardColumns(index: number, batch: ColumnBatch, inputIndex: number): void {
    if (batch.length === 0) return;
    const l = this.links[index];
    if (!l) this.tail.collectColumns(batch);
    else if (l.op.processColumns) l.op.processColumns(batch, inputIndex);
    else l.op.processBatch(batch.toRows(), inputIndex);
  }

  private forward(index: number, rows: Row[]): void {
    if (rows.length === 0) return;
    const l = this.links[index];
    if (l) l.op.processBatch(rows, 0);
    else this.tail.collect(rows);
  }

  /** The combined input watermark of the chain's head advanced. */
  processWatermark(watermark: number, inputIndex: number): void {
    this.advance(0, watermark, inputIndex);
  }

  private advance(index: number, wm: number, inputIndex: number): void {
    const l = this.links[index];
    if (!l) {
      this.tail.emitWatermark(wm);
      return;
    }
    if (wm <= l.watermark) return;
    l.watermark = wm;
    l.timers.watermark = wm;
    const onTimer = l.op.onTimer?.bind(l.op);
    if (onTimer) {
      l.timers.fire('EVENT_TIME', wm, (t) => {
        l.keyed.setCurrentKey(t.key);
        onTimer(t);
      });
    }
    if (l.op.processWatermark) l.op.processWatermark(wm, inputIndex);
    else this.advance(index + 1, wm, 0);
  }

  /** Earliest pending processing-time timer over the chain, for the task's wake-up. */
  nextProcessingTimer(): number | undefined {
    let min: number | undefined;
    for (const l of this.links) {
      const t = l.timers.nextProcessingTime();
      if (t !== undefined && (min === undefined || t < min)) min = t;
    }
    return min;
  }

  fireProcessingTimers(now: number): void {
    for (const l of this.links) {
      const onTimer = l.op.onTimer?.bind(l.op);
      if (!onTimer) continue;
      l.timers.fire('PROCESSING_TIME', now, (t) => {
        l.keyed.setCurrentKey(t.key);
        onTimer(t);
      });
    }
  }

  /** Lets each operator, head first, emit what it buffers before the barrier (`prepareSnapshotPreBarrier`). */
  prepareSnapshotPreBarrier(checkpointId: number): void {
    for (const l of this.links) l.op.prepareSnapshotPreBarrier?.(checkpointId);
  }

  /**
   * The state of every operator as of now, encoded before this returns: operators keep mutating their
   * accumulators in place after the barrier, so a checkpoint must never hold a live object.
   */
  snapshot(checkpointId: number): OperatorSnapshotBytes[] {
    return this.links.map((l) => {
      const raw = l.op.snapshotState?.(checkpointId);
      const keyed = l.keyed.snapshot(checkpointId);
      const s: OperatorSnapshot = {
        ...(keyed.base === undefined ? {} : { base: keyed.base }),
        raw,
        keyed,
        operatorState: l.opState.snapshot(),
        timers: l.timers.snapshot(),
      };
      const spill = l.keyed.spillSnapshots;
      return spill === undefined ? encodeState(s) : spillSnapshot(s, spill.localDir);
    });
  }

  notifyCheckpointComplete(checkpointId: number): void {
    for (const l of this.links) {
      l.keyed.notifyCheckpointComplete?.(checkpointId);
      l.op.notifyCheckpointComplete?.(checkpointId);
    }
  }

  /** End of input: each operator finishes in order, so upstream final output reaches downstream first. */
  async finish(): Promise<void> {
    for (let i = 0; i < this.links.length; i++) {
      this.advance(i, Infinity, 0);
      await this.links[i]!.op.finish?.();
    }
    this.tail.emitWatermark(Infinity);
  }

  async close(): Promise<void> {
    for (const l of this.links) {
      try {
        await l.op.close?.();
      } catch {
        // Closing after a failure must not mask the failure.
      }
      l.keyed.dispose?.();
    }
  }
}
