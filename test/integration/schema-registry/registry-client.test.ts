// The registry client against a real Confluent-compatible registry (Apicurio's ccompat API).
import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../../src/errors/sluice-error.js';
import { SchemaRegistryClient } from '../../../src/formats/avro-confluent/schema-registry-client.js';
import { REGISTRY_URL, registerSchema, registryAvailable, uniqueSubject } from './registry.js';

const up = await registryAvailable();

describe.skipIf(!up)('SchemaRegistryClient against a real registry', () => {
  const schema = (fields: object[]) => JSON.stringify({ type: 'record', name: 'r', fields });

  it('registers a schema, gets the same id for the same schema again, and fetches it by id', () => {
    const client = new SchemaRegistryClient({ url: REGISTRY_URL, headers: {} });
    const subject = uniqueSubject('client');
    const s1 = schema([{ name: 'a', type: 'int' }]);
    const id = client.register(subject, s1);
    expect(id).toBeGreaterThan(0);
    // A second client has no cache: the registry itself must answer the existing id.
    const other = new SchemaRegistryClient({ url: REGISTRY_URL, headers: {} });
    expect(other.register(subject, s1)).toBe(id);
    expect(JSON.parse(other.getSchemaById(id))).toEqual(JSON.parse(s1));
    const s2 = schema([{ name: 'a', type: 'int' }, { name: 'b', type: ['null', 'string'], default: null }]);
    expect(other.register(subject, s2)).not.toBe(id);
  });

  it('fetches a schema registered by another producer', async () => {
    const id = await registerSchema(uniqueSubject('other'), { type: 'record', name: 'x', fields: [{ name: 'q', type: 'long' }] });
    const client = new SchemaRegistryClient({ url: REGISTRY_URL, headers: {} });
    expect(JSON.parse(client.getSchemaById(id)).fields[0].name).toBe('q');
  });

  it('reports an unknown id with the registry status, and an unreachable registry', () => {
    const client = new SchemaRegistryClient({ url: REGISTRY_URL, headers: {} });
    expect(() => client.getSchemaById(987654321)).toThrow(/HTTP 404/);
    const down = new SchemaRegistryClient({ url: 'http://127.0.0.1:9', headers: {}, timeoutMs: 2000 });
    expect(() => down.getSchemaById(1)).toThrow(ConnectorError);
    expect(() => down.getSchemaById(1)).toThrow(/no schema registry answered/);
  });
});
