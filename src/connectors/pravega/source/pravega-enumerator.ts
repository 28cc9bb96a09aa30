import { ConnectorError } from '../../../errors/sluice-error.js';
import type { SplitEnumerator, SplitEnumeratorContext } from '../../../runtime/source/split-enumerator.js';
import type { SourceEvent } from '../../../runtime/source/source-split.js';
import { ControllerClient, SegmentStoreConnectionPool, tailStreamCut, type PravegaSecurity, type Successor } from '../client/index.js';
import type { StreamToRead } from '../pravega-options.js';
import { segmentSplitId, type FinishAcknowledgedEvent, type PravegaSplit, type SegmentsFinishedEvent } from './pravega-split.js';

/** Reader -> enumerator, once per reader start: the splits (live and tombstones) it holds after a restore. */
export interface ReaderHoldingsEvent extends SourceEvent {
  readonly type: 'pravega-reader-holdings';
  readonly splitIds: readonly string[];
}

/**
 * The enumerator's checkpoint. Together with the readers' split offsets it is a stream cut of every stream: finished
 * segments lie before it, assigned ones are cut at their reader's offset, pending successors start at 0.
 */
export interface PravegaEnumState {
  readonly initialized: boolean;
  /** Per stream (`scope/stream`), the resolved end positions: segment id -> exclusive end offset; absent = unbounded. */
  readonly ends: Readonly<Record<string, readonly (readonly [number, number])[]>>;
  readonly unassigned: readonly PravegaSplit[];
  /** Handed to a reader and not reported finished; re-assigned after a restore if no reader holds them. */
  readonly assigned: readonly PravegaSplit[];
  readonly finished: readonly string[];
  /** Sealed and drained, successors not looked up yet: looked up again after a restore. */
  readonly awaitingSuccessors: readonly string[];
  /** Successors known, waiting for some predecessors to finish. */
  readonly pending: readonly { readonly split: PravegaSplit; readonly predecessors: readonly string[] }[];
}

export interface PravegaEnumeratorSettings {
  readonly controllerUri: string;
  readonly security: PravegaSecurity;
  readonly streams: readonly StreamToRead[];
  /** Batch execution: streams without an end cut stop at their tail as of the first start. */
  readonly stopAtTail: boolean;
  readonly bounded: boolean;
}

/** How often a sealed stream is checked for deletion. */
const STREAM_WATCH_INTERVAL_MS = 2_000;

/**
 * Assigns Pravega segments to readers. Initially the segments of the start stream cuts (or the head); when a reader
 * reports a segment sealed and drained, it looks up the successors and assigns each one only when every predecessor
 * has finished, so events of one routing key are read in order across splits and merges. There is no reader group:
 * this enumerator is the only coordinator. Bounded reads end when every segment reached its end cut.
 */
export class PravegaSplitEnumerator implements SplitEnumerator<PravegaSplit, PravegaEnumState> {
  private initialized: boolean;
  private ends: Map<string, Map<number, number> | null>;
  private readonly unassigned: PravegaSplit[];
  private readonly assigned = new Map<string, { split: PravegaSplit; subtask: number | undefined }>();
  private readonly finished: Set<string>;
  private readonly awaitingSuccessors: Set<string>;
  private readonly pending = new Map<string, { split: PravegaSplit; predecessors: readonly string[] }>();
  private readonly load = new Map<number, number>();
  private readonly signaledNoMore = new Set<number>();
  private readonly holdings = new Map<number, readonly string[]>();
  private reconciled: boolean;
  private controller: ControllerClient | undefined;
  private closed = false;
  /** Streams found sealed (a segment ended without successors) that are watched for deletion. */
  private readonly watched = new Set<string>();

  constructor(
    private readonly ctx: SplitEnumeratorContext<PravegaSplit>,
    private readonly settings: PravegaEnumeratorSettings,
    restored?: PravegaEnumState,
  ) {
    this.initialized = restored?.initialized ?? false;
    this.ends = new Map(Object.entries(restored?.ends ?? {}).map(([k, v]) => [k, new Map(v)]));
    this.unassigned = [...(restored?.unassigned ?? [])];
    for (const s of restored?.assigned ?? []) this.assigned.set(s.splitId, { split: s, subtask: undefined });
    this.finished = new Set(restored?.finished ?? []);
    this.awaitingSuccessors = new Set(restored?.awaitingSuccessors ?? []);
    for (const p of restored?.pending ?? []) this.pending.set(p.split.splitId, p);
    // A fresh start has nothing in flight; a restore must first learn which assigned splits the readers still hold.
    this.reconciled = restored === undefined || this.assigned.size === 0;
  }

  async start(): Promise<void> {
    this.controller = new ControllerClient(this.settings.controllerUri, { security: this.settings.security });
    if (!this.initialized) await this.initialize(this.controller);
    for (const id of this.awaitingSuccessors) this.lookUpSuccessors(id);
    this.promotePending();
    this.assignPending();
  }

  private async initialize(controller: ControllerClient): Promise<void> {
    const pool = new SegmentStoreConnectionPool(controller.segmentStoreTls);
    try {
      for (const s of this.settings.streams) {
        if (!(await controller.streamExists(s.scope, s.stream))) {
          throw new ConnectorError(`Pravega stream '${s.scope}/${s.stream}' (in 'scan.streams') does not exist; create it or fix the name`);
        }
      }
      for (const s of this.settings.streams) {
        const key = `${s.scope}/${s.stream}`;
        const start = s.start.kind === 'cut' ? s.start.positions : await controller.getSegmentsAt(s.scope, s.stream, 0);
        let end: Map<number, number> | null = null;
        if (s.end.kind === 'cut') end = new Map(s.end.positions);
        else if (this.settings.stopAtTail) end = new Map((await tailStreamCut(controller, pool, s.scope, s.stream)).positions);
        // -1 in an end cut means "the whole segment": no end offset.
        if (end !== null) for (const [id, off] of end) if (off < 0) end.delete(id);
        this.ends.set(key, end);
        for (const [segmentId, offset] of start) {
          const splitId = segmentSplitId(s.scope, s.stream, segmentId);
          if (offset < 0) {
            this.markFinished(splitId, 'endOfSegment');
            continue;
          }
          const split = this.newSplit(s.scope, s.stream, segmentId, offset);
          if (split.endOffset !== null && offset >= split.endOffset) this.finished.add(splitId);
          else this.unassigned.push(split);
        }
      }
      this.initialized = true;
    } finally {
      await pool.close();
    }
  }

  private newSplit(scope: string, stream: string, segmentId: number, startOffset: number): PravegaSplit {
    const end = this.ends.get(`${scope}/${stream}`)?.get(segmentId);
    return { splitId: segmentSplitId(scope, stream, segmentId), scope, stream, segmentId, startOffset, endOffset: end ?? null };
  }

  handleSplitRequest(_subtaskIndex: number): void {
    // Push-based: splits are assigned when readers register and when successors become ready.
  }

  addSplitsBack(splits: PravegaSplit[], subtaskIndex: number): void {
    for (const s of splits) {
      const a = this.assigned.get(s.splitId);
      if (a !== undefined) this.unload(a.subtask);
      this.assigned.delete(s.splitId);
      if (s.finished !== undefined) this.markFinished(s.splitId, s.finished);
      else this.unassigned.push(s);
    }
    this.signaledNoMore.delete(subtaskIndex);
    this.promotePending();
    this.assignPending();
  }

  addReader(_subtaskIndex: number): void {
    this.assignPending();
  }

  handleSourceEvent(subtaskIndex: number, event: SourceEvent): void {
    if (event.type === 'pravega-segments-finished') {
      const e = event as SegmentsFinishedEvent;
      for (const { splitId, reason } of e.segments) {
        const a = this.assigned.get(splitId);
        if (a !== undefined) this.unload(a.subtask);
        this.assigned.delete(splitId);
        this.markFinished(splitId, reason);
      }
      const ack: FinishAcknowledgedEvent = { type: 'pravega-finish-acknowledged', splitIds: e.segments.map((s) => s.splitId) };
      this.ctx.sendEventToSourceReader(subtaskIndex, ack);
      this.promotePending();
      this.assignPending();
    } else if (event.type === 'pravega-reader-holdings') {
      this.holdings.set(subtaskIndex, (event as ReaderHoldingsEvent).splitIds);
      this.reconcile();
    }
  }

  /** After a restore: assigned splits that no reader holds (assignment lost in flight) go back to unassigned. */
  private reconcile(): void {
    if (this.reconciled || this.holdings.size < this.ctx.currentParallelism()) return;
    const held = new Set([...this.holdings.values()].flat());
    for (const [id, a] of [...this.assigned]) {
      if (!held.has(id)) {
        this.assigned.delete(id);
        this.unassigned.push(a.split);
      }
    }
    this.reconciled = true;
    this.assignPending();
  }

  private markFinished(splitId: string, reason: 'endOfSegment' | 'reachedEnd'): void {
    if (this.finished.has(splitId)) return;
    this.finished.add(splitId);
    if (reason === 'endOfSegment') {
      this.awaitingSuccessors.add(splitId);
      if (this.controller !== undefined) this.lookUpSuccessors(splitId);
    }
  }

  private lookUpSuccessors(splitId: string): void {
    const controller = this.controller!;
    const [scope, stream, id] = splitId.split('/') as [string, string, string];
    this.ctx.callAsync<Successor[]>(
      () => controller.getSuccessors({ scope, stream, segmentId: Number(id) }),
      (successors, error) => {
        if (this.closed) return;
        if (error !== undefined && error !== null) {
          throw new ConnectorError(`cannot look up the successors of Pravega segment ${splitId}: ${(error as Error).message}`, { cause: error });
        }
        this.awaitingSuccessors.delete(splitId);
        if ((successors ?? []).length === 0) this.watchSealedStream(scope, stream, splitId);
        for (const s of successors ?? []) {
          const sid = segmentSplitId(scope, stream, s.segment.segmentId);
          if (this.finished.has(sid) || this.assigned.has(sid) || this.pending.has(sid) || this.unassigned.some((u) => u.splitId === sid)) continue;
          this.pending.set(sid, {
            split: this.newSplit(scope, stream, s.segment.segmentId, 0),
            predecessors: s.predecessors.map((p) => segmentSplitId(scope, stream, p)),
          });
        }
        this.promotePending();
        this.assignPending();
      },
    );
  }

  /**
   * A segment ended without successors: its stream is sealed, or was deleted. Sealed, it simply has no more events
   * (the streaming job idles, as a Pravega reader on a sealed stream does); deleted, reading it cannot go on, which
   * fails the job with a message naming the stream rather than leaving it idle forever. The existence check repeats
   * every few seconds because a stream is sealed before it can be deleted.
   */
  private watchSealedStream(scope: string, stream: string, splitId: string): void {
    const key = `${scope}/${stream}`;
    if (this.watched.has(key) || this.settings.bounded) return;
    this.watched.add(key);
    const controller = this.controller!;
    this.ctx.callAsync<boolean>(
      () => controller.streamExists(scope, stream),
      (exists, error) => {
        // An unreachable controller is not a deleted stream; the next check decides.
        if (this.closed || error !== undefined || exists !== false) return;
        throw new ConnectorError(`Pravega stream '${key}' was deleted while the job was reading it (segment ${splitId} ended without successors)`);
      },
      0,
      STREAM_WATCH_INTERVAL_MS,
    );
  }

  /** Successors whose predecessors have all finished become assignable. */
  private promotePending(): void {
    for (const [id, p] of [...this.pending]) {
      if (p.predecessors.every((x) => this.finished.has(x))) {
        this.pending.delete(id);
        this.unassigned.push(p.split);
      }
    }
  }

  private assignPending(): void {
    if (!this.initialized || !this.reconciled || this.controller === undefined) return;
    const readers = [...this.ctx.registeredReaders().keys()];
    if (readers.length === 0) return;
    while (this.unassigned.length > 0) {
      const split = this.unassigned.shift()!;
      let target = readers[0]!;
      for (const r of readers) if ((this.load.get(r) ?? 0) < (this.load.get(target) ?? 0)) target = r;
      this.load.set(target, (this.load.get(target) ?? 0) + 1);
      this.assigned.set(split.splitId, { split, subtask: target });
      this.ctx.assignSplit(split, target);
    }
    this.maybeSignalEnd(readers);
  }

  private maybeSignalEnd(readers: readonly number[]): void {
    if (!this.settings.bounded) return;
    if (this.unassigned.length > 0 || this.assigned.size > 0 || this.awaitingSuccessors.size > 0) return;
    for (const r of readers) {
      if (this.signaledNoMore.has(r)) continue;
      this.signaledNoMore.add(r);
      this.ctx.signalNoMoreSplits(r);
    }
  }

  private unload(subtask: number | undefined): void {
    if (subtask !== undefined) this.load.set(subtask, Math.max(0, (this.load.get(subtask) ?? 0) - 1));
  }

  snapshotState(_checkpointId: number): PravegaEnumState {
    const ends: Record<string, (readonly [number, number])[]> = {};
    for (const [k, v] of this.ends) if (v !== null) ends[k] = [...v];
    return {
      initialized: this.initialized,
      ends,
      unassigned: [...this.unassigned],
      assigned: [...this.assigned.values()].map((a) => a.split),
      finished: [...this.finished],
      awaitingSuccessors: [...this.awaitingSuccessors],
      pending: [...this.pending.values()],
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.controller?.close();
  }
}
