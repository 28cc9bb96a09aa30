import { describe, expect, it } from 'vitest';
import type { SerializationSchema } from '../../../src/factories/format.js';
import { KafkaRecordSerializer, type KafkaSinkLayout } from '../../../src/connectors/kafka/kafka-record-serializer.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';

/** Writes `<kind>:<fields as JSON>`, so a test sees the kind the format was given. */
const kindAware: SerializationSchema = {
  serialize: (row: Row) => Buffer.from(`${row.kind}:${JSON.stringify(row.fields)}`),
};

const layout = (upsert: boolean): KafkaSinkLayout => ({ keyIndexes: [0], valueIndexes: [0, 1], physicalArity: 2, metadataKeys: [], upsert });
const text = (b: Uint8Array | Buffer | null | undefined): string | null => (b == null ? null : Buffer.from(b).toString());

describe('KafkaRecordSerializer', () => {
  it('hands the value format the row kind, so changelog formats write updates and deletes as such', () => {
    const s = new KafkaRecordSerializer(layout(false), { kind: 'topics', topics: ['t'] }, kindAware, kindAware);
    const kinds = [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE];
    const values = kinds.map((k) => text(s.serialize(new Row(k, [1, 'a']))!.value));
    expect(values).toEqual(kinds.map((k) => `${k}:[1,"a"]`));
    // The key is always written as an insert.
    expect(text(s.serialize(new Row(RowKind.DELETE, [1, 'a']))!.key)).toBe(`${RowKind.INSERT}:[1]`);
  });

  it('in upsert mode writes values as inserts, a delete as a tombstone, and drops -U', () => {
    const s = new KafkaRecordSerializer(layout(true), { kind: 'topics', topics: ['t'] }, kindAware, kindAware);
    expect(text(s.serialize(new Row(RowKind.UPDATE_AFTER, [1, 'b']))!.value)).toBe(`${RowKind.INSERT}:[1,"b"]`);
    expect(s.serialize(new Row(RowKind.UPDATE_BEFORE, [1, 'a']))).toBeUndefined();
    expect(s.serialize(new Row(RowKind.DELETE, [1, 'a']))!.value).toBeNull();
  });
});
