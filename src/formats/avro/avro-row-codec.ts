import { ValidationError } from '../../errors/sluice-error.js';
import { Decimal } from '../../types/decimal.js';
import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import type { DeserializationSchema, MessageOrigin, SerializationSchema } from '../../factories/format.js';
import { FieldValueError, decodeError, encodeError, withField } from '../format-error.js';
import { AvroReader, AvroWriter } from './avro-binary.js';
import { type AvroTimestampMapping, avroSchemaOf } from './avro-schema.js';
import { epochMicrosOf, timestampOfEpochMicros } from '../../types/values/precise-timestamp.js';
import type { TimestampValue } from '../../types/values/precise-timestamp.js';

/** Writes one value of a known type. */
export type Write = (w: AvroWriter, v: unknown) => void;
/** Reads one value of a known type. */
export type Read = (r: AvroReader) => unknown;

/** Minimal two's complement big-endian bytes of a bigint, as Java's BigInteger.toByteArray. */
function bigintToBytes(v: bigint): Uint8Array {
  const bytes: number[] = [];
  let x = v;
  for (;;) {
    const b = Number(BigInt.asUintN(8, x));
    bytes.push(b);
    x >>= 8n;
    if ((x === 0n && (b & 0x80) === 0) || (x === -1n && (b & 0x80) !== 0)) break;
  }
  return Uint8Array.from(bytes.reverse());
}

/** The bigint of two's complement big-endian bytes (an Avro decimal's unscaled value). */
export function bytesToBigint(b: Uint8Array): bigint {
  if (b.length === 0) return 0n;
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return BigInt.asIntN(b.length * 8, v);
}

function nullable(t: LogicalType, write: Write): Write {
  if (!t.nullable || t.kind === 'NULL') return write;
  return (w, v) => {
    if (v === null || v === undefined) w.writeInt(0);
    else {
      w.writeInt(1);
      write(w, v);
    }
  };
}

function nullableRead(t: LogicalType, read: Read): Read {
  if (!t.nullable || t.kind === 'NULL') return read;
  return (r) => {
    const branch = r.readInt();
    if (branch === 0) return null;
    if (branch !== 1) throw new FieldValueError(`union branch ${branch} is not in ["null", value].`);
    return read(r);
  };
}

/** Reads an Avro array (blocks of items until an empty block), each item with `item`. */
export function arrayReader(item: Read): Read {
  return (r) => {
    const out: unknown[] = [];
    for (let n = r.readBlockCount(); n > 0; n = r.readBlockCount()) for (let i = 0; i < n; i++) out.push(item(r));
    return out;
  };
}

/** Reads an Avro map (blocks of string keys and values) into a `Map`, each value with `value`. */
export function mapReader(value: Read): Read {
  return (r) => {
    const out = new Map<unknown, unknown>();
    for (let n = r.readBlockCount(); n > 0; n = r.readBlockCount()) {
      for (let i = 0; i < n; i++) {
        const k = r.readString();
        out.set(k, value(r));
      }
    }
    return out;
  };
}

/**
 * Reader of a timestamp-micros long into a TIMESTAMP(p) / TIMESTAMP_LTZ(p) value: for p > 3 every microsecond is kept
 * (a PreciseTimestamp when finer than a millisecond, as Flink's TimestampData.fromInstant; like Flink's formats, not
 * truncated to p), epoch ms (floored) for p <= 3.
 */
export function readMicros(precision: number): Read {
  if (precision <= 3) return readMicrosAsMillis;
  return (r) => timestampOfEpochMicros(r.readLong());
}

/** Reads a timestamp-micros long as Sluice's epoch milliseconds, flooring as Java's Math.floorDiv. */
export const readMicrosAsMillis: Read = (r) => {
  const us = r.readLong();
  const ms = us / 1000n;
  return Number(us < 0n && ms * 1000n !== us ? ms - 1n : ms);
};

/** Writer of a value of `t` in the schema `avroSchemaOf` derives (including the null union). */
export function avroWriter(t: LogicalType): Write {
  return nullable(t, baseWriter(t));
}

function baseWriter(t: LogicalType): Write {
  switch (t.kind) {
    case 'NULL':
      return () => undefined;
    case 'VARIANT':
      throw new ValidationError('The Avro format does not support the VARIANT type yet.');
    case 'BOOLEAN':
      return (w, v) => w.writeBoolean(v as boolean);
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'DATE':
    case 'TIME':
      return (w, v) => w.writeInt(v as number);
    case 'BIGINT':
      return (w, v) => w.writeLong(v as bigint);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      // timestamp-micros above 3 digits: a TIMESTAMP(7..9) value's digits below the microsecond do not fit and are dropped.
      return t.precision <= 3 ? (w, v) => w.writeLong(v as number) : (w, v) => w.writeLong(epochMicrosOf(v as TimestampValue));
    case 'FLOAT':
      return (w, v) => w.writeFloat(v as number);
    case 'DOUBLE':
      return (w, v) => w.writeDouble(v as number);
    case 'CHAR':
    case 'VARCHAR':
      return (w, v) => w.writeString(v as string);
    case 'BINARY':
    case 'VARBINARY':
      return (w, v) => w.writeBytes(v as Uint8Array);
    case 'DECIMAL': {
      const scale = t.scale;
      return (w, v) => w.writeBytes(bigintToBytes((v as Decimal).rescale(scale).unscaled));
    }
    case 'ARRAY': {
      const e = avroWriter(t.element);
      return (w, v) => {
        const a = v as unknown[];
        if (a.length > 0) {
          w.writeInt(a.length);
          for (let i = 0; i < a.length; i++) {
            try {
              e(w, a[i]);
            } catch (err) {
              throw withField(err, `[${i}]`);
            }
          }
        }
        w.writeInt(0);
      };
    }
    case 'MAP':
    case 'MULTISET': {
      const value: Write = t.kind === 'MAP' ? avroWriter(t.value) : (w, n) => w.writeInt(n as number);
      return (w, v) => {
        const m = v as Map<unknown, unknown>;
        if (m.size > 0) {
          w.writeInt(m.size);
          for (const [k, x] of m) {
            if (k === null || k === undefined) throw new FieldValueError('Avro maps cannot hold a NULL key.');
            w.writeString(k as string);
            value(w, x);
          }
        }
        w.writeInt(0);
      };
    }
    case 'ROW': {
      const fields = t.fields.map((f) => avroWriter(f.type));
      const names = t.fields.map((f) => f.name);
      return (w, v) => {
        const a = v as readonly unknown[];
        for (let i = 0; i < fields.length; i++) {
          try {
            fields[i]!(w, a[i] ?? null);
          } catch (err) {
            throw withField(err, names[i]!);
          }
        }
      };
    }
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
      avroSchemaOf({ kind: 'ROW', nullable: false, fields: [{ name: 'f', type: t }] });
      throw new Error('unreachable');
  }
}

/** Reader of a value of `t` in the schema `avroSchemaOf` derives. */
export function avroReader(t: LogicalType): Read {
  return nullableRead(t, baseReader(t));
}

function baseReader(t: LogicalType): Read {
  switch (t.kind) {
    case 'NULL':
      return () => null;
    case 'VARIANT':
      throw new ValidationError('The Avro format does not support the VARIANT type yet.');
    case 'BOOLEAN':
      return (r) => r.readBoolean();
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'DATE':
    case 'TIME':
      return (r) => r.readInt();
    case 'BIGINT':
      return (r) => r.readLong();
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ': {
      if (t.precision <= 3) return (r) => Number(r.readLong());
      return readMicros(t.precision);
    }
    case 'FLOAT':
      return (r) => r.readFloat();
    case 'DOUBLE':
      return (r) => r.readDouble();
    case 'CHAR':
    case 'VARCHAR':
      return (r) => r.readString();
    case 'BINARY':
    case 'VARBINARY':
      return (r) => r.readBytes();
    case 'DECIMAL': {
      const { precision, scale } = t;
      return (r) => Decimal.of(bytesToBigint(r.readBytes()), scale).toPrecision(precision, scale);
    }
    case 'ARRAY':
      return arrayReader(avroReader(t.element));
    case 'MAP':
    case 'MULTISET':
      return mapReader(t.kind === 'MAP' ? avroReader(t.value) : (r) => r.readInt());
    case 'ROW': {
      const fields = t.fields.map((f) => avroReader(f.type));
      const names = t.fields.map((f) => f.name);
      return (r) => {
        const out = new Array<unknown>(fields.length);
        for (let i = 0; i < fields.length; i++) {
          try {
            out[i] = fields[i]!(r);
          } catch (err) {
            throw withField(err, names[i]!);
          }
        }
        return out;
      };
    }
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
      avroSchemaOf({ kind: 'ROW', nullable: false, fields: [{ name: 'f', type: t }] });
      throw new Error('unreachable');
  }
}

/**
 * The top-level record is never nullable, as the table's physical row type is NOT NULL in Flink. Fails, as
 * Flink's format does, on a type the schema cannot carry under `mapping`.
 */
function topLevel(rowType: RowType, mapping: AvroTimestampMapping): RowType {
  avroSchemaOf(rowType, 'record', mapping);
  return { ...rowType, nullable: false };
}

/**
 * `'format' = 'avro'` decoder (Flink's AvroRowDataDeserializationSchema): one Avro binary record per
 * message, written with the schema `avroSchemaOf(physicalType)`, no header.
 */
export class AvroRowDecoder implements DeserializationSchema {
  skippedRecords = 0;
  private readonly read: Read;

  constructor(rowType: RowType, mapping: AvroTimestampMapping = 'legacy') {
    this.read = avroReader(topLevel(rowType, mapping));
  }

  deserialize(message: Uint8Array, out: Row[], origin?: MessageOrigin): void {
    if (message.length === 0) return;
    let fields: unknown[];
    try {
      const r = new AvroReader(message);
      fields = this.read(r) as unknown[];
      if (r.remaining !== 0) throw new FieldValueError(`${r.remaining} bytes left after the record; the writer's schema differs from the table's.`);
    } catch (e) {
      throw decodeError('avro', 'Avro message', Buffer.from(message.subarray(0, 64)).toString('hex'), e, origin);
    }
    out.push(new Row(RowKind.INSERT, fields));
  }
}

/** `'format' = 'avro'` encoder (Flink's AvroRowDataSerializationSchema). */
export class AvroRowEncoder implements SerializationSchema {
  private readonly write: Write;
  private readonly writer = new AvroWriter();

  constructor(rowType: RowType, mapping: AvroTimestampMapping = 'legacy') {
    this.write = avroWriter(topLevel(rowType, mapping));
  }

  serialize(row: Row): Uint8Array {
    try {
      this.write(this.writer, row.fields);
      return this.writer.take();
    } catch (e) {
      this.writer.take();
      throw encodeError('avro', e);
    }
  }
}
