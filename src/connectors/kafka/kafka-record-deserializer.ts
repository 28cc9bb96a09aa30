/**
 * Kafka record -> table rows (Flink's DynamicKafkaDeserializationSchema): the key bytes through the key
 * format into the key columns, the value bytes through the value format into the value columns, both
 * placed at their positions among the physical columns, then the requested metadata appended.
 *
 * Upsert mode (upsert-kafka) makes a changelog out of a compacted topic: a tombstone (null value) is a
 * -D carrying the key columns; a value for a key seen before in the same split is +U, otherwise +I.
 * The seen-key set lives in memory per split and is not checkpointed: after a restore a key first
 * seen before the checkpoint comes once more as +I, which the upsert changelog mode (idempotent per
 * key) absorbs.
 */
import type { DeserializationSchema } from '../../factories/format.js';
import { ConnectorError } from '../../errors/sluice-error.js';
import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { RawKafkaMessage } from './client/kafkajs-internals.js';
import { readMetadata, recordTimestamp, type ReadableMetadataKey } from './kafka-metadata.js';

export interface KafkaRowLayout {
  /** Number of physical columns of the table. */
  readonly physicalArity: number;
  /** Positions (among the physical columns) of the key format's fields, in its order. */
  readonly keyIndexes: readonly number[];
  /** Positions of the value format's fields, in its order. */
  readonly valueIndexes: readonly number[];
  /** Metadata appended after the physical columns, in this order. */
  readonly metadataKeys: readonly ReadableMetadataKey[];
  readonly upsert: boolean;
}

/** Per-split mutable context the deserializer needs (kept in the split state by the reader). */
export interface SplitDecodeContext {
  readonly topic: string;
  readonly partition: number;
  /** Upsert mode only: keys (latin1 of the key bytes) with a live value in this split. */
  readonly liveKeys: Set<string>;
}

export class KafkaRecordDeserializer {
  private readonly keyRows: Row[] = [];
  private readonly valueRows: Row[] = [];
  /** The value format's rows already are the table's rows (no key, no metadata, identity order). */
  private readonly passThrough: boolean;
  /** The record being decoded, for error messages; one closure for all records instead of one each. */
  private current: RawKafkaMessage | undefined;
  private currentCtx: SplitDecodeContext | undefined;
  private readonly origin = (): string =>
    `topic '${this.currentCtx?.topic}', partition ${this.currentCtx?.partition}, offset ${this.current?.offset}`;

  constructor(
    private readonly layout: KafkaRowLayout,
    private readonly keyDecoder: DeserializationSchema | undefined,
    private readonly valueDecoder: DeserializationSchema,
  ) {
    const L = layout;
    this.passThrough =
      keyDecoder === undefined &&
      !L.upsert &&
      L.metadataKeys.length === 0 &&
      L.keyIndexes.length === 0 &&
      L.valueIndexes.length === L.physicalArity &&
      L.valueIndexes.every((v, i) => v === i);
  }

  /** Records skipped by the formats' `ignore-parse-errors`. */
  get skippedRecords(): number {
    return (this.keyDecoder?.skippedRecords ?? 0) + this.valueDecoder.skippedRecords;
  }

  /**
   * Appends the rows of all `records` (one fetched partition batch, in offset order) to `rows`, and for
   * each row its record's timestamp (epoch ms) to `timestamps`, so `rows[i]` came from a record written
   * at `timestamps[i]`. Synchronous; called once per fetched batch by the source reader's emitter.
   * The common case (value format only) runs one tight loop over the batch with no per-record call
   * into the assembling code. Throws as `deserialize`.
   */
  deserializeBatch(records: readonly RawKafkaMessage[], ctx: SplitDecodeContext, rows: Row[], timestamps: number[]): void {
    const decoder = this.valueDecoder;
    const origin = this.origin;
    this.currentCtx = ctx;
    for (let r = 0; r < records.length; r++) {
      const record = records[r] as RawKafkaMessage;
      const before = rows.length;
      this.current = record;
      const value = record.value;
      if (this.passThrough && value !== null && value !== undefined) decoder.deserialize(value, rows, origin);
      else this.deserialize(record, ctx, rows);
      const after = rows.length;
      if (after === before) continue;
      const ts = recordTimestamp(record);
      for (let i = before; i < after; i++) timestamps.push(ts);
    }
  }

  /**
   * Appends the rows of one record to `out`. Synchronous; called once per record on the hot path.
   * Throws FormatError (from the formats) or ConnectorError naming topic, partition and offset.
   */
  deserialize(record: RawKafkaMessage, ctx: SplitDecodeContext, out: Row[]): void {
    const L = this.layout;
    this.current = record;
    this.currentCtx = ctx;
    const origin = this.origin;
    if (this.passThrough && record.value !== null && record.value !== undefined) {
      // The hot common case (value format only): the decoder's rows are the result, no re-assembly.
      this.valueDecoder.deserialize(record.value, out, origin);
      return;
    }
    let keyFields: readonly unknown[] | undefined;
    if (this.keyDecoder && record.key !== null && record.key !== undefined) {
      this.keyRows.length = 0;
      this.keyDecoder.deserialize(record.key, this.keyRows, origin);
      const k = this.keyRows[0];
      if (k === undefined) return; // a skipped (unparseable, ignored) key drops the record, as Flink
      keyFields = k.fields;
    }
    if (record.value === null || record.value === undefined) {
      if (!L.upsert) return; // Flink's kafka connector drops tombstones
      if (keyFields === undefined) {
        throw new ConnectorError(`upsert-kafka read a tombstone without a key at ${origin()}; a delete needs the key.`);
      }
      if (record.key) ctx.liveKeys.delete(record.key.toString('latin1'));
      out.push(this.assemble(RowKind.DELETE, keyFields, undefined, record, ctx));
      return;
    }
    this.valueRows.length = 0;
    this.valueDecoder.deserialize(record.value, this.valueRows, origin);
    for (const v of this.valueRows) {
      let kind = v.kind;
      if (L.upsert && record.key) {
        const id = record.key.toString('latin1');
        if (ctx.liveKeys.has(id)) kind = RowKind.UPDATE_AFTER;
        else {
          ctx.liveKeys.add(id);
          kind = RowKind.INSERT;
        }
      }
      out.push(this.assemble(kind, keyFields, v.fields, record, ctx));
    }
  }

  private assemble(
    kind: RowKind,
    keyFields: readonly unknown[] | undefined,
    valueFields: readonly unknown[] | undefined,
    record: RawKafkaMessage,
    ctx: SplitDecodeContext,
  ): Row {
    const L = this.layout;
    const fields = new Array<unknown>(L.physicalArity + L.metadataKeys.length).fill(null);
    // Key first, then value, as Flink: with value.fields-include = ALL the value's copy of a key column wins.
    if (keyFields) for (let i = 0; i < L.keyIndexes.length; i++) fields[L.keyIndexes[i] as number] = keyFields[i] ?? null;
    if (valueFields) for (let i = 0; i < L.valueIndexes.length; i++) fields[L.valueIndexes[i] as number] = valueFields[i] ?? null;
    for (let m = 0; m < L.metadataKeys.length; m++) {
      fields[L.physicalArity + m] = readMetadata(L.metadataKeys[m] as ReadableMetadataKey, record, ctx.topic, ctx.partition);
    }
    return new Row(kind, fields);
  }
}
