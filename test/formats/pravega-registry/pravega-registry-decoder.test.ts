import { describe, expect, it } from 'vitest';
import type { PravegaRegistryClient } from '../../../src/connectors/pravega/registry/registry-client.js';
import type { EncodingInfo } from '../../../src/connectors/pravega/registry/registry-model.js';
import { ConnectorError } from '../../../src/errors/sluice-error.js';
import { AvroWriter } from '../../../src/formats/avro/avro-binary.js';
import { DEFAULT_JSON_DECODE } from '../../../src/formats/json/json-options.js';
import { PravegaRegistryDecoder } from '../../../src/formats/pravega-registry/pravega-registry-decoder.js';
import { encodingIdOf, framed, registryHeader } from '../../../src/formats/pravega-registry/registry-wire.js';
import type { RowType } from '../../../src/types/logical-type.js';
import { parseLogicalType } from '../../../src/types/parse-logical-type.js';
import type { Row } from '../../../src/types/row.js';

const ROW = parseLogicalType('ROW<id INT NOT NULL, name STRING>') as RowType;
const AVRO = JSON.stringify({ type: 'record', name: 'R', fields: [{ name: 'id', type: 'int' }, { name: 'name', type: ['null', 'string'] }] });

/** A registry that knows encoding ids 3 (Avro, above) and 4 (Json) and counts the lookups. */
function stubRegistry(): { client: PravegaRegistryClient; lookups: number[] } {
  const lookups: number[] = [];
  const info = (format: 'Avro' | 'Json', schema: string): EncodingInfo => ({
    schemaInfo: { type: 'R', serializationFormat: format, schema, properties: {} },
    versionInfo: { type: 'R', serializationFormat: format, version: 0, id: 0 },
    codecType: { name: '', properties: {} },
  });
  const client = {
    getEncodingInfo: async (_group: string, id: number): Promise<EncodingInfo> => {
      lookups.push(id);
      if (id === 3) return info('Avro', AVRO);
      if (id === 4) return info('Json', '{"type":"object","properties":{"id":{"type":"integer"}}}');
      throw new Error(`no encoding id ${id}`);
    },
  } as unknown as PravegaRegistryClient;
  return { client, lookups };
}

function avroEvent(id: number, name: string | null): Uint8Array {
  const w = new AvroWriter();
  w.writeInt(id);
  if (name === null) w.writeLong(0);
  else {
    w.writeLong(1);
    w.writeString(name);
  }
  return framed(registryHeader(3), w.take());
}

describe('pravega-registry decoder', () => {
  it('reads the header: protocol byte 1 and a big-endian int32 encoding id, negative ids included', () => {
    expect(encodingIdOf(registryHeader(258))).toBe(258);
    expect(encodingIdOf(registryHeader(-2))).toBe(-2);
    expect([...registryHeader(258)]).toEqual([1, 0, 0, 1, 2]);
    expect(encodingIdOf(new Uint8Array([0, 0, 0, 0, 1]))).toBeUndefined();
    expect(encodingIdOf(new Uint8Array([1, 0, 0]))).toBeUndefined();
  });

  it('looks each encoding id up once in prepare, and then decodes without awaiting', async () => {
    const { client, lookups } = stubRegistry();
    const d = new PravegaRegistryDecoder(ROW, client, 'g', "group 'g'", DEFAULT_JSON_DECODE);
    const events = [avroEvent(1, 'a'), avroEvent(2, null), framed(registryHeader(4), Buffer.from('{"id": 5, "name": "j"}'))];
    await d.prepare(events);
    expect(d.prepare(events)).toBeUndefined();
    expect(lookups).toEqual([3, 4]);
    const out: Row[] = [];
    for (const e of events) d.deserialize(e, out);
    expect(out.map((r) => r.fields)).toEqual([
      [1, 'a'],
      [2, null],
      [5, 'j'],
    ]);
  });

  it('refuses an id that was not prepared, and a lookup that fails names the id and the group', async () => {
    const { client } = stubRegistry();
    const d = new PravegaRegistryDecoder(ROW, client, 'g', "group 'g'", DEFAULT_JSON_DECODE);
    expect(() => d.deserialize(avroEvent(1, 'a'), [])).toThrow(ConnectorError);
    expect(() => d.deserialize(avroEvent(1, 'a'), [])).toThrow("met encoding id 3 of group 'g' before it was looked up");
    await expect(d.prepare([framed(registryHeader(9), new Uint8Array(1))])).rejects.toThrow("Cannot read an event of group 'g': looking up its encoding id 9 failed. no encoding id 9");
  });
});
