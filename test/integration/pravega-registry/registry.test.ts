// The Pravega Schema Registry (schemaregistry-server from Maven Central, storing into the project's Pravega) over
// its REST API: first with plain fetch, to pin what the server itself does, then through Sluice's client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PravegaRegistryClient } from '../../../src/connectors/pravega/registry/registry-client.js';
import { PravegaRegistryError } from '../../../src/connectors/pravega/registry/registry-error.js';
import { REGISTRY_URI, registryAvailable, uniqueGroup } from './registry-env.js';

const up = await registryAvailable();

const userV1 = JSON.stringify({ type: 'record', name: 'User', namespace: 'sluice.test', fields: [{ name: 'id', type: 'long' }] });
// Adds a field with a default: a reader of v2 can read v1 data, so Backward accepts it.
const userV2 = JSON.stringify({
  type: 'record',
  name: 'User',
  namespace: 'sluice.test',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'name', type: 'string', default: '' },
  ],
});
// Adds a field without a default: a reader of this one cannot read v1 data, so Backward refuses it.
const userBreaking = JSON.stringify({
  type: 'record',
  name: 'User',
  namespace: 'sluice.test',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'email', type: 'string' },
  ],
});

describe.skipIf(!up)('Pravega Schema Registry over REST', () => {
  // Made in beforeAll: vitest runs this body to collect the tests even when the suite is skipped (no URI).
  let base = '';
  let client: PravegaRegistryClient;
  beforeAll(() => {
    base = (REGISTRY_URI ?? '').replace(/\/+$/, '');
    client = new PravegaRegistryClient({ uri: base });
  });
  const groups: string[] = [];
  const newGroup = (label: string): string => {
    const g = uniqueGroup(label);
    groups.push(g);
    return g;
  };

  afterAll(async () => {
    for (const g of groups) await client.deleteGroup(g).catch(() => undefined);
  });

  it('creates a group, adds an Avro schema, reads it back and gives it an encoding id (plain REST)', async () => {
    const group = newGroup('rest');
    const json = { 'Content-Type': 'application/json' };
    const created = await fetch(`${base}/v1/groups`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        groupName: group,
        groupProperties: {
          serializationFormat: { serializationFormat: 'Avro' },
          compatibility: { policy: 'Backward' },
          allowMultipleTypes: false,
          properties: {},
        },
      }),
    });
    expect(created.status).toBe(201);

    const added = await fetch(`${base}/v1/groups/${group}/schemas`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        type: 'sluice.test.User',
        serializationFormat: { serializationFormat: 'Avro' },
        schemaData: Buffer.from(userV1).toString('base64'),
        properties: {},
      }),
    });
    expect(added.status).toBe(201);
    const version = (await added.json()) as { type: string; version: number; id: number };
    expect(version).toMatchObject({ type: 'sluice.test.User', version: 0, id: 0 });

    const listed = (await (await fetch(`${base}/v1/groups/${group}/schemas/versions`)).json()) as {
      schemas: { schemaInfo: { schemaData: string } }[];
    };
    expect(listed.schemas).toHaveLength(1);
    expect(Buffer.from(listed.schemas[0]!.schemaInfo.schemaData, 'base64').toString()).toBe(userV1);

    const enc = await fetch(`${base}/v1/groups/${group}/encodings`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ versionInfo: version, codecType: '' }),
    });
    expect(enc.status).toBe(200);
    const { encodingId } = (await enc.json()) as { encodingId: number };
    expect(Number.isInteger(encodingId)).toBe(true);
  });

  it('createGroup is idempotent, and the group is listed with its properties', async () => {
    const group = newGroup('create');
    expect(await client.createGroup(group, { serializationFormat: 'Avro', compatibility: 'Backward' })).toBe(true);
    expect(await client.createGroup(group, { serializationFormat: 'Avro', compatibility: 'Full' })).toBe(false);
    // The existing group keeps its properties.
    const props = await client.getGroupProperties(group);
    expect(props).toMatchObject({ serializationFormat: 'Avro', compatibility: 'Backward', allowMultipleTypes: false });
    const all = await client.listGroups();
    expect(all.get(group)?.serializationFormat).toBe('Avro');
  });

  it('adds schemas, finds the same one again, and resolves encoding ids both ways', async () => {
    const group = newGroup('enc');
    await client.createGroup(group, { serializationFormat: 'Avro' });
    const v1 = await client.addSchema(group, { type: 'sluice.test.User', serializationFormat: 'Avro', schema: userV1 });
    const again = await client.addSchema(group, { type: 'sluice.test.User', serializationFormat: 'Avro', schema: userV1 });
    expect(again).toEqual(v1);
    const v2 = await client.addSchema(group, { type: 'sluice.test.User', serializationFormat: 'Avro', schema: userV2 });
    expect(v2.version).toBe(v1.version + 1);
    expect(v2.id).not.toBe(v1.id);

    const schemas = await client.getSchemas(group);
    expect(schemas.map((s) => s.schemaInfo.schema)).toEqual([userV1, userV2]);
    expect((await client.getLatestSchema(group))?.versionInfo).toEqual(v2);
    expect((await client.getSchemaById(group, v1.id)).schema).toBe(userV1);

    const e1 = await client.getEncodingId(group, v1);
    const e2 = await client.getEncodingId(group, v2);
    expect(e2).not.toBe(e1);
    expect(await client.getEncodingId(group, v1)).toBe(e1);
    const info = await client.getEncodingInfo(group, e2);
    expect(info.schemaInfo.schema).toBe(userV2);
    expect(info.versionInfo).toEqual(v2);
    expect(info.codecType.name).toBe('');
  });

  it('gives a schema written with another codec its own encoding id', async () => {
    const group = newGroup('codec');
    await client.createGroup(group, { serializationFormat: 'Avro' });
    await client.addCodecType(group, { name: 'gzip', properties: {} });
    expect((await client.getCodecTypes(group)).map((c) => c.name)).toEqual(['gzip']);
    const v1 = await client.addSchema(group, { type: 'sluice.test.User', serializationFormat: 'Avro', schema: userV1 });
    const plain = await client.getEncodingId(group, v1);
    const gzip = await client.getEncodingId(group, v1, 'gzip');
    expect(gzip).not.toBe(plain);
    expect((await client.getEncodingInfo(group, gzip)).codecType.name).toBe('gzip');
  });

  it("refuses a schema the group's compatibility rule forbids, naming the rule, until the rule changes", async () => {
    const group = newGroup('compat');
    await client.createGroup(group, { serializationFormat: 'Avro', compatibility: 'Backward' });
    await client.addSchema(group, { type: 'sluice.test.User', serializationFormat: 'Avro', schema: userV1 });
    const breaking = { type: 'sluice.test.User', serializationFormat: 'Avro', schema: userBreaking } as const;
    expect(await client.validateSchema(group, breaking)).toBe(false);
    expect(await client.validateSchema(group, { ...breaking, schema: userV2 })).toBe(true);
    const err = await client.addSchema(group, breaking).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PravegaRegistryError);
    expect((err as PravegaRegistryError).status).toBe(409);
    expect((err as Error).message).toContain("compatibility rule 'Backward'");
    expect((err as Error).message).toContain(group);

    await client.updateCompatibility(group, 'AllowAny');
    expect((await client.getGroupProperties(group)).compatibility).toBe('AllowAny');
    const v = await client.addSchema(group, breaking);
    expect(v.version).toBe(1);
  });

  it('reports a missing group as a 404 that names it, and deleting twice is harmless', async () => {
    const group = newGroup('gone');
    const err = await client.getGroupProperties(group).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PravegaRegistryError);
    expect((err as PravegaRegistryError).status).toBe(404);
    expect((err as Error).message).toContain(`group '${group}'`);

    await client.createGroup(group, { serializationFormat: 'Json' });
    expect((await client.getGroupProperties(group)).compatibility).toBe('AllowAny');
    expect((await client.listGroups()).has(group)).toBe(true);
    await client.deleteGroup(group);
    expect((await client.listGroups()).has(group)).toBe(false);
    await client.deleteGroup(group);
  });

  it('explains why a Json group cannot take a compatibility rule the registry only checks for Avro', async () => {
    const group = newGroup('json');
    const err = await client.createGroup(group, { serializationFormat: 'Json', compatibility: 'Backward' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PravegaRegistryError);
    expect((err as PravegaRegistryError).status).toBe(400);
    expect((err as Error).message).toContain("a Json group takes 'AllowAny' or 'DenyAll'");
    expect((await client.listGroups()).has(group)).toBe(false);
  });
});
