import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';
import { avroSchemaOf } from '../../../src/formats/avro/avro-schema.js';
import type { SchemaLookup } from '../../../src/formats/avro-confluent/avro-confluent-codec.js';
import {
  DebeziumAvroConfluentDecoder,
  DebeziumAvroConfluentEncoder,
  debeziumEnvelope,
} from '../../../src/formats/avro-confluent/debezium-avro-confluent-codec.js';

const type = DataTypes.ROW(FIELD('id', DataTypes.INT()), FIELD('v', DataTypes.STRING()));

/** Keeps whatever is registered, so the decoder reads what the encoder wrote. */
class OneSchema implements SchemaLookup {
  schema = '';
  getSchemaById(): string {
    return this.schema;
  }
  register(_subject: string, schema: string): number {
    this.schema = schema;
    return 9;
  }
}

describe('debezium-avro-confluent', () => {
  it('writes +I/+U as create and -U/-D as delete events, which read back as +I and -D', () => {
    const reg = new OneSchema();
    const enc = new DebeziumAvroConfluentEncoder(type, reg, 's', JSON.stringify(avroSchemaOf(debeziumEnvelope(type))));
    const dec = new DebeziumAvroConfluentDecoder(type, reg);
    const out: Row[] = [];
    for (const kind of [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE]) {
      dec.deserialize(enc.serialize(new Row(kind, [kind, `k${kind}`])), out);
    }
    expect(out.map((r) => [r.kind, ...r.fields])).toEqual([
      [RowKind.INSERT, RowKind.INSERT, 'k0'],
      [RowKind.DELETE, RowKind.UPDATE_BEFORE, 'k1'],
      [RowKind.INSERT, RowKind.UPDATE_AFTER, 'k2'],
      [RowKind.DELETE, RowKind.DELETE, 'k3'],
    ]);
  });

  it('rejects an update without a before image and an unknown op, naming the problem', () => {
    const reg = new OneSchema();
    reg.schema = JSON.stringify(avroSchemaOf(debeziumEnvelope(type)));
    const dec = new DebeziumAvroConfluentDecoder(type, reg);
    // before: null; after: {id: 1, v: 'a'} (each nullable: union branch 1); op: a one-letter string (nullable).
    const frameOf = (op: string): Uint8Array => Uint8Array.from([0, 0, 0, 0, 9, 0, 2, 2, 2, 2, 2, 0x61, 2, 2, op.charCodeAt(0)]);
    const ok: Row[] = [];
    dec.deserialize(frameOf('c'), ok);
    expect(ok.map((r) => [r.kind, ...r.fields])).toEqual([[RowKind.INSERT, 1, 'a']]);
    expect(() => dec.deserialize(frameOf('u'), [])).toThrow(/"before" field of UPDATE message is null/);
    expect(() => dec.deserialize(frameOf('x'), [])).toThrow(/Unknown "op" value "x"/);
  });
});
