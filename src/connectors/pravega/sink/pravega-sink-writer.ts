import { ConnectorError } from '../../../errors/sluice-error.js';
import type { SerializationSchema } from '../../../factories/format.js';
import type { SinkWriter } from '../../../runtime/sink/sink-writer.js';
import type { Row } from '../../../types/row.js';
import {
  ControllerClient,
  EventStreamWriter,
  SegmentStoreConnectionPool,
  Transaction,
  txnIdToString,
  type EventToWrite,
} from '../client/index.js';
import type { PravegaSinkConfig } from '../pravega-options.js';
import type { PravegaCommittable } from './pravega-committable.js';

/** What every writer of the sink needs. */
export interface PravegaSinkSettings {
  readonly config: PravegaSinkConfig;
  /** A fresh encoder per writer. */
  readonly createSerializer: () => SerializationSchema;
  /** Position of the routing-key column in the consumed row; undefined routes randomly. */
  readonly routingKeyIndex?: number;
}

/** Batches handed to Pravega and not yet acknowledged before `write` starts returning backpressure. */
const MAX_IN_FLIGHT_BATCHES = 8;
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Creates the scope and the stream if missing. A created stream has one segment and fixed scaling (Flink's connector
 * leaves creation to the user; creating the simplest stream keeps `INSERT INTO` working on an empty Pravega and can be
 * rescaled later with Pravega's tools).
 */
export async function ensureStream(controller: ControllerClient, scope: string, stream: string): Promise<void> {
  if (await controller.streamExists(scope, stream)) return;
  await controller.createScope(scope);
  await controller.createStream(scope, stream, { scaling: { kind: 'fixed', segments: 1 } });
}

abstract class PravegaWriterBase {
  protected readonly controller: ControllerClient;
  protected readonly pool: SegmentStoreConnectionPool;
  private readonly serializer: SerializationSchema;
  /** The encoder's `open` (schema registration), awaited before its first row; undefined once done or not needed. */
  private encoderOpening: Promise<void> | undefined;
  private ready: Promise<void> | undefined;
  protected readonly inFlight = new Set<Promise<void>>();

  constructor(protected readonly settings: PravegaSinkSettings) {
    this.controller = new ControllerClient(settings.config.controllerUri, { security: settings.config.security });
    this.pool = new SegmentStoreConnectionPool(this.controller.segmentStoreTls);
    this.serializer = settings.createSerializer();
    this.encoderOpening = this.serializer.open === undefined ? undefined : this.serializer.open();
    // Failures surface on the first write; until then an unobserved rejection must not crash the process.
    this.encoderOpening?.catch(() => undefined);
  }

  protected abstract open(): Promise<void>;
  protected abstract dispatch(events: EventToWrite[]): void | Promise<void>;

  /** Encodes synchronously; awaits only the first time (stream creation) or when too much is in flight. */
  write(batch: readonly Row[]): void | Promise<void> {
    const opening = this.encoderOpening;
    if (opening !== undefined) {
      return opening.then(() => {
        this.encoderOpening = undefined;
        return this.write(batch);
      });
    }
    const idx = this.settings.routingKeyIndex;
    const events: EventToWrite[] = new Array<EventToWrite>(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const row = batch[i]!;
      const key = idx === undefined ? null : row.fields[idx];
      const payload = this.serializer.serialize(row);
      events[i] = key === null || key === undefined ? { payload } : { routingKey: String(key), payload };
    }
    if (this.ready === undefined) this.ready = this.open();
    return this.ready.then(() => this.dispatch(events));
  }

  protected track(p: Promise<void>): void | Promise<void> {
    this.inFlight.add(p);
    const forget = (): void => void this.inFlight.delete(p);
    p.then(forget, forget);
    if (this.inFlight.size >= MAX_IN_FLIGHT_BATCHES) return Promise.race([...this.inFlight]).catch(() => undefined);
    return undefined;
  }

  protected get config(): PravegaSinkConfig {
    return this.settings.config;
  }

  protected async release(): Promise<void> {
    this.controller.close();
    await this.pool.close();
  }
}

/** at-least-once (waits for acknowledgements at every barrier) and best-effort (never waits, logs failures). */
export class PravegaEventSinkWriter extends PravegaWriterBase implements SinkWriter<Row> {
  private writer: EventStreamWriter | undefined;
  private failures = 0;

  protected async open(): Promise<void> {
    await ensureStream(this.controller, this.config.scope, this.config.stream);
    this.writer = await EventStreamWriter.open(this.controller, this.pool, this.config.scope, this.config.stream);
  }

  protected dispatch(events: EventToWrite[]): void | Promise<void> {
    let p = this.writer!.writeEvents(events);
    if (this.config.semantic === 'best-effort') {
      p = p.catch((e: unknown) => {
        // best-effort accepts loss by definition; count it so it is visible, never fail the job.
        if (this.failures++ === 0) console.warn(`Pravega best-effort sink to '${this.config.scope}/${this.config.stream}' lost events: ${(e as Error).message}`);
      });
    }
    return this.track(p);
  }

  async flush(endOfInput: boolean): Promise<void> {
    if (this.writer === undefined) return;
    if (this.config.semantic === 'at-least-once') await this.writer.flush();
    else if (endOfInput) await this.writer.flush().catch(() => undefined);
  }

  async close(): Promise<void> {
    const w = this.writer;
    this.writer = undefined;
    if (w !== undefined) await Promise.race([w.close().catch(() => undefined), new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS).unref())]);
    await this.release();
  }
}

/**
 * exactly-once: the events between two barriers go into one Pravega transaction. `prepareCommit` flushes it and hands
 * its id to the committer; the lease of every transaction not known to be committed is renewed every third of
 * `sink.txn-lease-renewal.interval`. An open transaction left by a crash is aborted by Pravega when its lease ends.
 */
export class PravegaTransactionalSinkWriter extends PravegaWriterBase implements SinkWriter<Row, PravegaCommittable> {
  private txn: Transaction | undefined;
  private opening: Promise<Transaction> | undefined;
  private readonly prepared = new Set<Transaction>();
  private readonly pingTimer: NodeJS.Timeout;
  private failure: Error | undefined;
  private watermark: number | undefined;

  constructor(settings: PravegaSinkSettings) {
    super(settings);
    this.pingTimer = setInterval(() => void this.ping(), Math.max(1000, Math.floor(settings.config.txnLeaseMs / 3)));
    this.pingTimer.unref();
  }

  protected async open(): Promise<void> {
    await ensureStream(this.controller, this.config.scope, this.config.stream);
  }

  protected dispatch(events: EventToWrite[]): void | Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    if (this.txn !== undefined) return this.track(this.txn.writeEvents(events));
    this.opening ??= Transaction.begin(this.controller, this.pool, this.config.scope, this.config.stream, this.config.txnLeaseMs);
    return this.opening.then((t) => {
      this.txn = t;
      this.opening = undefined;
      return this.track(t.writeEvents(events));
    });
  }

  writeWatermark(watermark: number): void {
    if (this.config.watermarkPropagation) this.watermark = watermark;
  }

  async flush(_endOfInput: boolean): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    await this.txn?.flush();
  }

  async prepareCommit(): Promise<PravegaCommittable[]> {
    const t = this.txn;
    if (t === undefined) return [];
    await t.flush();
    this.txn = undefined;
    this.prepared.add(t);
    return [
      {
        scope: t.scope,
        stream: t.stream,
        txnHigh: BigInt.asIntN(64, t.txnId.highBits).toString(),
        txnLow: BigInt.asIntN(64, t.txnId.lowBits).toString(),
        txnId: txnIdToString(t.txnId),
        preparedAt: Date.now(),
        leaseMs: this.config.txnLeaseMs,
        ...(this.watermark === undefined ? {} : { watermark: this.watermark }),
      },
    ];
  }

  private async ping(): Promise<void> {
    const open = this.txn;
    if (open !== undefined) {
      const s = await open.ping(this.config.txnLeaseMs).catch((e: unknown) => e as Error);
      if (s !== 'OK') {
        const what = `Cannot renew the lease of Pravega transaction ${open.id} on stream '${this.config.scope}/${this.config.stream}'`;
        this.failure ??= new ConnectorError(
          s instanceof Error
            ? `${what}: the controller ${this.config.controllerUri} is unreachable (${s.message})`
            : `${what}: the controller answered ${s}${s === 'ABORTED' || s === 'UNKNOWN' ? ' (the stream was sealed or deleted, or the lease ran out)' : ''}`,
        );
      }
    }
    for (const t of [...this.prepared]) {
      const s = await t.ping(this.config.txnLeaseMs).catch(() => 'UNKNOWN');
      // Committed or aborted: nothing left to keep alive (the committer reports an abort).
      if (s === 'COMMITTED' || s === 'ABORTED') this.prepared.delete(t);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.pingTimer);
    const t = this.txn;
    this.txn = undefined;
    // Only the open transaction is ours to drop; prepared ones belong to a checkpoint and may still be committed.
    if (t !== undefined) await t.abort().catch(() => undefined);
    await this.release();
  }
}
