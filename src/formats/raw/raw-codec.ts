import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import type { DeserializationSchema, MessageOrigin, SerializationSchema } from '../../factories/format.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { FieldValueError, decodeError, encodeError } from '../format-error.js';
import type { RawCharset, RawSettings } from './raw-options.js';

const EMPTY = new Uint8Array(0);

/** The single column's type, checked as Flink's RawFormatFactory does. */
export function rawColumnType(rowType: RowType): LogicalType {
  if (rowType.fields.length !== 1) {
    throw new ValidationError(
      `The 'raw' format only supports single physical column. However the defined schema contains multiple physical columns: [${rowType.fields
        .map((f) => `\`${f.name}\` ${typeToString(f.type)}`)
        .join(', ')}]`,
    );
  }
  const t = rowType.fields[0]!.type;
  switch (t.kind) {
    case 'CHAR':
    case 'VARCHAR':
    case 'BINARY':
    case 'VARBINARY':
    case 'BOOLEAN':
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
    case 'FLOAT':
    case 'DOUBLE':
      return t;
    default:
      throw new ValidationError(`The 'raw' format doesn't supports '${typeToString(t)}' as column type.`);
  }
}

/**
 * The fixed-size layout of each numeric column type: its size and how it is read and written, in one
 * place so the decoder and the encoder cannot disagree. `le` is little-endian (`raw.endianness`).
 */
interface NumericLayout {
  readonly size: number;
  read(view: DataView, le: boolean): unknown;
  write(view: DataView, value: unknown, le: boolean): void;
}

const NUMERIC_LAYOUT: Partial<Record<LogicalType['kind'], NumericLayout>> = {
  BOOLEAN: { size: 1, read: (d) => d.getUint8(0) !== 0, write: (d, v) => d.setUint8(0, v ? 1 : 0) },
  TINYINT: { size: 1, read: (d) => d.getInt8(0), write: (d, v) => d.setInt8(0, v as number) },
  SMALLINT: { size: 2, read: (d, le) => d.getInt16(0, le), write: (d, v, le) => d.setInt16(0, v as number, le) },
  INT: { size: 4, read: (d, le) => d.getInt32(0, le), write: (d, v, le) => d.setInt32(0, v as number, le) },
  BIGINT: { size: 8, read: (d, le) => d.getBigInt64(0, le), write: (d, v, le) => d.setBigInt64(0, v as bigint, le) },
  FLOAT: { size: 4, read: (d, le) => d.getFloat32(0, le), write: (d, v, le) => d.setFloat32(0, v as number, le) },
  DOUBLE: { size: 8, read: (d, le) => d.getFloat64(0, le), write: (d, v, le) => d.setFloat64(0, v as number, le) },
};

function decodeString(bytes: Uint8Array, charset: RawCharset): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (charset) {
    case 'UTF-8':
      return b.toString('utf8');
    case 'UTF-16LE':
      return b.toString('utf16le');
    case 'ISO-8859-1':
      return b.toString('latin1');
    case 'US-ASCII':
      return b.toString('ascii');
    case 'UTF-16':
      // Java's UTF-16 decoder honours a BOM and defaults to big-endian.
      if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return b.subarray(2).toString('utf16le');
      return swap16(b.length >= 2 && b[0] === 0xfe && b[1] === 0xff ? b.subarray(2) : b).toString('utf16le');
    case 'UTF-16BE':
      return swap16(b).toString('utf16le');
  }
}

function swap16(b: Buffer): Buffer {
  const c = Buffer.from(b.subarray(0, b.length - (b.length % 2)));
  return c.swap16();
}

function encodeString(s: string, charset: RawCharset): Uint8Array {
  switch (charset) {
    case 'UTF-8':
      return Buffer.from(s, 'utf8');
    case 'UTF-16LE':
      return Buffer.from(s, 'utf16le');
    case 'ISO-8859-1':
      return Buffer.from(s, 'latin1');
    case 'US-ASCII':
      return Buffer.from(s.replace(/[^\x00-\x7f]/g, '?'), 'ascii');
    case 'UTF-16':
      // Java writes a big-endian BOM first.
      return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(s, 'utf16le').swap16()]);
    case 'UTF-16BE':
      return Buffer.from(s, 'utf16le').swap16();
  }
}

/**
 * `'format' = 'raw'` decoder: the whole message is the single column's value. Strings are decoded with
 * `raw.charset`, numbers read in `raw.endianness` with the exact size of their type. An empty message
 * (a Kafka tombstone) reads as NULL for numeric columns, as the empty value for strings and bytes.
 */
export class RawRowDecoder implements DeserializationSchema {
  skippedRecords = 0;
  private readonly type: LogicalType;

  constructor(
    rowType: RowType,
    private readonly settings: RawSettings,
  ) {
    this.type = rawColumnType(rowType);
  }

  deserialize(message: Uint8Array, out: Row[], origin?: MessageOrigin): void {
    let value: unknown;
    try {
      value = this.read(message);
    } catch (e) {
      throw decodeError('raw', 'raw message', Buffer.from(message).toString('hex'), e, origin);
    }
    out.push(new Row(RowKind.INSERT, [value]));
  }

  private read(m: Uint8Array): unknown {
    const t = this.type;
    if (t.kind === 'CHAR' || t.kind === 'VARCHAR') return decodeString(m, this.settings.charset);
    if (t.kind === 'BINARY' || t.kind === 'VARBINARY') return m.slice();
    if (m.length === 0) return null;
    const layout = NUMERIC_LAYOUT[t.kind]!;
    if (m.length !== layout.size) {
      throw new FieldValueError(`Size of the given byte array is ${m.length}, but expected ${layout.size} for ${typeToString(t)}.`);
    }
    return layout.read(new DataView(m.buffer, m.byteOffset, m.byteLength), !this.settings.bigEndian);
  }
}

/**
 * `'format' = 'raw'` encoder. A NULL value becomes an empty message: the SerializationSchema contract has
 * no null message (Flink writes a Kafka tombstone here).
 */
export class RawRowEncoder implements SerializationSchema {
  private readonly type: LogicalType;

  constructor(
    rowType: RowType,
    private readonly settings: RawSettings,
  ) {
    this.type = rawColumnType(rowType);
  }

  serialize(row: Row): Uint8Array {
    const v = row.fields[0];
    if (v === null || v === undefined) return EMPTY;
    const t = this.type;
    if (t.kind === 'CHAR' || t.kind === 'VARCHAR') return encodeString(v as string, this.settings.charset);
    if (t.kind === 'BINARY' || t.kind === 'VARBINARY') return v as Uint8Array;
    const layout = NUMERIC_LAYOUT[t.kind];
    if (layout === undefined) throw encodeError('raw', new Error(`unexpected type ${typeToString(t)}`));
    const out = new Uint8Array(layout.size);
    layout.write(new DataView(out.buffer), v, !this.settings.bigEndian);
    return out;
  }
}
