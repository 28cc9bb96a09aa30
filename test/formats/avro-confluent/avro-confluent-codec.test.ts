import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { notNull } from '../../../src/types/logical-type.js';
import type { RowType } from '../../../src/types/logical-type.js';
import { Decimal } from '../../../src/types/decimal.js';
import type { Row } from '../../../src/types/row.js';
import { ConnectorError } from '../../../src/errors/sluice-error.js';
import { AvroWriter } from '../../../src/formats/avro/avro-binary.js';
import { FormatError } from '../../../src/formats/format-error.js';
import { AvroConfluentDecoder, AvroConfluentEncoder, type SchemaLookup } from '../../../src/formats/avro-confluent/avro-confluent-codec.js';
import { frame, readSchemaId } from '../../../src/formats/avro-confluent/confluent-wire.js';
import { insert } from '../fixtures.js';

/** An in-memory registry for unit tests; the real one is exercised in test/integration/schema-registry. */
class MemoryRegistry implements SchemaLookup {
  readonly schemas = new Map<number, string>();
  fetches = 0;
  registrations: [string, string][] = [];
  getSchemaById(id: number): string {
    this.fetches++;
    const s = this.schemas.get(id);
    if (s === undefined) throw new ConnectorError(`no schema ${id}`);
    return s;
  }
  register(subject: string, schema: string): number {
    this.registrations.push([subject, schema]);
    const id = 100 + this.registrations.length;
    this.schemas.set(id, schema);
    return id;
  }
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function decode(type: RowType, reg: SchemaLookup, ...messages: Uint8Array[]): unknown[][] {
  const d = new AvroConfluentDecoder(type, reg);
  const out: Row[] = [];
  for (const m of messages) d.deserialize(m, out);
  return out.map((r) => r.fields as unknown[]);
}

function body(write: (w: AvroWriter) => void): Uint8Array {
  const w = new AvroWriter();
  write(w);
  return w.take();
}

describe('Confluent wire format', () => {
  it('frames a body with magic byte 0 and the schema id as a 4-byte big-endian int', () => {
    const m = frame(0x01020304, Uint8Array.of(0xaa));
    expect(hex(m)).toBe('0001020304aa');
    expect(readSchemaId(m)).toBe(0x01020304);
  });

  it('rejects a message with another magic byte or shorter than the header', () => {
    const reg = new MemoryRegistry();
    const type = DataTypes.ROW(FIELD('a', DataTypes.INT()));
    expect(() => decode(type, reg, Uint8Array.of(1, 0, 0, 0, 1, 0))).toThrow(/Unknown magic byte 1/);
    expect(() => decode(type, reg, Uint8Array.of(0, 0, 1))).toThrow(FormatError);
  });
});

describe('avro-confluent encoder and decoder', () => {
  const type = DataTypes.ROW(FIELD('id', notNull(DataTypes.BIGINT())), FIELD('name', DataTypes.STRING()), FIELD('price', DataTypes.DECIMAL(6, 2)));

  it('registers the schema once under the subject and round-trips rows, fetching each writer schema once', () => {
    const reg = new MemoryRegistry();
    const schema = '{"type":"record","name":"record","fields":[{"name":"id","type":"long"}]}';
    const enc = new AvroConfluentEncoder(type, reg, 'orders-value', schema);
    const a = enc.serialize(insert([1n, 'x', Decimal.parse('1.50')]));
    const b = enc.serialize(insert([2n, null, null]));
    expect(reg.registrations).toEqual([['orders-value', schema]]);
    expect(readSchemaId(a)).toBe(101);
    // The decoder reads with the registered (here: deliberately narrower) writer schema, so register a real one.
    reg.schemas.set(101, JSON.stringify({ type: 'record', name: 'r', fields: [
      { name: 'id', type: 'long' }, { name: 'name', type: ['null', 'string'] },
      { name: 'price', type: ['null', { type: 'bytes', logicalType: 'decimal', precision: 6, scale: 2 }] },
    ] }));
    const rows = decode(type, reg, a, b);
    expect(rows[0]![0]).toBe(1n);
    expect(rows[0]![1]).toBe('x');
    expect((rows[0]![2] as Decimal).toString()).toBe('1.50');
    expect(rows[1]).toEqual([2n, null, null]);
    expect(reg.fetches).toBe(1);
  });

  it('reports an unknown schema id as a registry error, not a bad record', () => {
    expect(() => decode(type, new MemoryRegistry(), frame(7, Uint8Array.of(2)))).toThrow(ConnectorError);
    expect(() => decode(type, new MemoryRegistry(), frame(7, Uint8Array.of(2)))).not.toThrow(FormatError);
  });
});

describe('schema resolution of the writer schema against the table', () => {
  it('promotes int to BIGINT and float to DOUBLE, skips writer-only fields, reads missing nullable columns as NULL', () => {
    const reg = new MemoryRegistry();
    reg.schemas.set(1, JSON.stringify({ type: 'record', name: 'old', fields: [
      { name: 'id', type: 'int' },
      { name: 'dropped', type: { type: 'map', values: { type: 'array', items: 'string' } } },
      { name: 'score', type: 'float' },
    ] }));
    const table = DataTypes.ROW(FIELD('id', notNull(DataTypes.BIGINT())), FIELD('score', DataTypes.DOUBLE()), FIELD('added', DataTypes.STRING()));
    const m = frame(1, body((w) => {
      w.writeInt(-3);
      w.writeInt(1); w.writeString('k'); w.writeInt(2); w.writeString('a'); w.writeString('b'); w.writeInt(0); w.writeInt(0);
      w.writeFloat(1.5);
    }));
    expect(decode(table, reg, m)).toEqual([[-3n, 1.5, null]]);
  });

  it('reads enums as strings, fixed decimals with the writer scale, timestamp-micros as milliseconds', () => {
    const reg = new MemoryRegistry();
    reg.schemas.set(2, JSON.stringify({ type: 'record', name: 'r', namespace: 'x.y', fields: [
      { name: 'color', type: { type: 'enum', name: 'Color', symbols: ['RED', 'GREEN'] } },
      { name: 'amount', type: { type: 'fixed', name: 'Amt', size: 2, logicalType: 'decimal', precision: 4, scale: 1 } },
      { name: 'ts', type: { type: 'long', logicalType: 'timestamp-micros' } },
      { name: 'again', type: 'x.y.Color' },
    ] }));
    const table = DataTypes.ROW(FIELD('color', DataTypes.STRING()), FIELD('amount', DataTypes.DECIMAL(6, 2)), FIELD('ts', DataTypes.TIMESTAMP(3)), FIELD('again', DataTypes.STRING()));
    // A fixed has no length prefix: the two bytes 0x00 0x7b are the unscaled 123, i.e. 12.3 at the writer's scale 1.
    const raw = frame(2, Uint8Array.from([...body((w) => w.writeInt(1)), 0x00, 0x7b, ...body((w) => {
      w.writeLong(1_700_000_000_123_456n);
      w.writeInt(0);
    })]));
    const [row] = decode(table, reg, raw);
    expect(row![0]).toBe('GREEN');
    expect((row![1] as Decimal).toString()).toBe('12.30');
    expect(row![2]).toBe(1_700_000_000_123);
    expect(row![3]).toBe('RED');
  });

  it('reads a ["null", T] writer union into a NOT NULL column until a NULL arrives', () => {
    const reg = new MemoryRegistry();
    reg.schemas.set(3, JSON.stringify({ type: 'record', name: 'r', fields: [{ name: 'n', type: ['null', 'int'] }] }));
    const table = DataTypes.ROW(FIELD('n', notNull(DataTypes.INT())));
    expect(decode(table, reg, frame(3, Uint8Array.of(2, 8)))).toEqual([[4]]);
    expect(() => decode(table, reg, frame(3, Uint8Array.of(0)))).toThrow(/field 'n'.*cannot be read as INT NOT NULL/);
  });

  it('fails on the first message of a writer schema that lacks a NOT NULL column, naming the column', () => {
    const reg = new MemoryRegistry();
    reg.schemas.set(4, JSON.stringify({ type: 'record', name: 'r', fields: [{ name: 'a', type: 'int' }] }));
    const table = DataTypes.ROW(FIELD('a', DataTypes.INT()), FIELD('b', notNull(DataTypes.STRING())));
    expect(() => decode(table, reg, frame(4, Uint8Array.of(2)))).toThrow(/id 4.*field 'b'.*no field 'b'.*no default/);
  });

  it('skips a recursive writer record the table does not read', () => {
    const reg = new MemoryRegistry();
    reg.schemas.set(5, JSON.stringify({ type: 'record', name: 'Node', fields: [
      { name: 'v', type: 'int' },
      { name: 'next', type: ['null', 'Node'] },
    ] }));
    const table = DataTypes.ROW(FIELD('v', DataTypes.INT()));
    // v=1, next={v=2, next=null}
    expect(decode(table, reg, frame(5, Uint8Array.of(2, 2, 4, 0)))).toEqual([[1]]);
  });

  it('rejects a writer type that cannot be promoted (string read as INT)', () => {
    const reg = new MemoryRegistry();
    reg.schemas.set(6, JSON.stringify({ type: 'record', name: 'r', fields: [{ name: 'a', type: 'string' }] }));
    expect(() => decode(DataTypes.ROW(FIELD('a', DataTypes.INT())), reg, frame(6, Uint8Array.of(0)))).toThrow(/'string' cannot be read as INT/);
  });
});
