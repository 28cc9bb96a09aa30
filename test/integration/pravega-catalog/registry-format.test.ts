import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../../src/api/table-environment.js';
import { ControllerClient, EventStreamWriter, SegmentStoreConnectionPool } from '../../../src/connectors/pravega/client/index.js';
import { PravegaRegistryClient } from '../../../src/connectors/pravega/registry/registry-client.js';
import { AvroWriter } from '../../../src/formats/avro/avro-binary.js';
import { pravegaAvailable } from '../pravega/pravega-env.js';
import { registryAvailable } from '../pravega-registry/registry-env.js';
import { CONTROLLER_URI, REGISTRY_URI, newEnv, run, uniqueName, valuesOf } from './catalog-env.js';

const available = (await pravegaAvailable()) && (await registryAvailable());

describe.skipIf(!available)("format 'pravega-registry' on a plain pravega table", () => {
  const scope = uniqueName('sluicefmt');
  const envs: TableEnvironment[] = [];
  let controller: ControllerClient;
  let pool: SegmentStoreConnectionPool;
  let registry: PravegaRegistryClient;

  /** A pravega table over `stream` in the registry's encoding; `extra` adds or overrides options. */
  function table(name: string, columns: string, stream: string, extra: Record<string, string> = {}): string {
    const options: Record<string, string> = {
      connector: 'pravega',
      'controller-uri': CONTROLLER_URI,
      scope,
      'scan.streams': stream,
      'sink.stream': stream,
      'scan.execution.type': 'batch',
      ...(extra['format'] === undefined
        ? { format: 'pravega-registry', 'pravega-registry.uri': REGISTRY_URI!, 'pravega-registry.namespace': scope, 'pravega-registry.group-id': stream }
        : {}),
      ...extra,
    };
    const withClause = Object.entries(options)
      .map(([k, v]) => `'${k}' = '${v}'`)
      .join(', ');
    return `CREATE TEMPORARY TABLE ${name} (${columns}) WITH (${withClause})`;
  }

  /** The raw bytes of every event of `stream`, through the raw format. */
  async function rawEvents(env: TableEnvironment, stream: string): Promise<Buffer[]> {
    await run(env, table(`raw_${stream.replaceAll('-', '_')}`, 'b BYTES', stream, { format: 'raw' }));
    return (await valuesOf(env, `SELECT b FROM raw_${stream.replaceAll('-', '_')}`)).map((r) => Buffer.from(r[0] as Uint8Array));
  }

  beforeAll(async () => {
    controller = new ControllerClient(CONTROLLER_URI);
    pool = new SegmentStoreConnectionPool(undefined);
    registry = new PravegaRegistryClient({ uri: REGISTRY_URI!, namespace: scope });
    await controller.createScope(scope);
  });
  afterAll(async () => {
    for (const e of envs) await e.close();
    await pool?.close();
    controller?.close();
  });

  it("writes each event as the registry's header (protocol byte 1, encoding id of the registered version) and an Avro body", async () => {
    await controller.createStream(scope, 'hdr', { scaling: { kind: 'fixed', segments: 1 } });
    await registry.createGroup('hdr', { serializationFormat: 'Avro', compatibility: 'AllowAny' });
    const env = newEnv(envs);
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    await run(env, table('hdr', 'id INT NOT NULL, name STRING NOT NULL', 'hdr'));
    await run(env, "INSERT INTO hdr VALUES (7, 'seven')");
    const [version] = await registry.getSchemas('hdr');
    expect(JSON.parse(version!.schemaInfo.schema)).toEqual({
      type: 'record',
      name: 'record',
      fields: [
        { name: 'id', type: 'int' },
        { name: 'name', type: 'string' },
      ],
    });
    const id = await registry.getEncodingId('hdr', version!.versionInfo);
    const events = await rawEvents(env, 'hdr');
    // 0x01, the encoding id (int32 big-endian), then int 7 zig-zag (0x0e), string length 5 (0x0a), 'seven'.
    const expected = Buffer.concat([Buffer.from([1]), Buffer.from([0, 0, 0, 0]), Buffer.from([0x0e, 0x0a]), Buffer.from('seven')]);
    expected.writeInt32BE(id, 1);
    expect(events).toEqual([expected]);
  });

  it("reads another writer's events by schema resolution: its own record name, field order and extra field, plain or gzip", async () => {
    await controller.createStream(scope, 'foreign', { scaling: { kind: 'fixed', segments: 1 } });
    await registry.createGroup('foreign', { serializationFormat: 'Avro', compatibility: 'AllowAny' });
    const v1 = await registry.addSchema('foreign', {
      type: 'com.example.Reading',
      serializationFormat: 'Avro',
      schema: JSON.stringify({
        type: 'record',
        name: 'Reading',
        namespace: 'com.example',
        fields: [
          { name: 'note', type: 'string' },
          { name: 'value', type: 'int' },
          { name: 'sensor', type: 'string' },
        ],
      }),
    });
    await registry.addCodecType('foreign', { name: 'application/x-gzip', properties: {} });
    const plainId = await registry.getEncodingId('foreign', v1);
    const gzipId = await registry.getEncodingId('foreign', v1, 'application/x-gzip');
    const body = (note: string, value: number, sensor: string): Uint8Array => {
      const w = new AvroWriter();
      w.writeString(note);
      w.writeInt(value);
      w.writeString(sensor);
      return w.take();
    };
    const event = (id: number, payload: Uint8Array): Uint8Array => {
      const h = Buffer.alloc(5);
      h[0] = 1;
      h.writeInt32BE(id, 1);
      return Buffer.concat([h, payload]);
    };
    const writer = await EventStreamWriter.open(controller, pool, scope, 'foreign');
    await writer.writeEvents([
      { routingKey: 'k', payload: event(plainId, body('first', 1, 's-1')) },
      { routingKey: 'k', payload: event(gzipId, gzipSync(body('zipped', 2, 's-2'))) },
    ]);
    await writer.close();
    const env = newEnv(envs);
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    // The table's columns: a subset in another order, the value widened to BIGINT (Avro promotes int to long).
    await run(env, table('readings', 'sensor STRING, `value` BIGINT', 'foreign'));
    expect(await valuesOf(env, 'SELECT sensor, `value` FROM readings')).toEqual([
      ['s-1', 1n],
      ['s-2', 2n],
    ]);
  });

  it('refuses bad input with errors that name the option or the event', async () => {
    const env = newEnv(envs);
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    // Another connector: the lookups would block its reader.
    await run(
      env,
      `CREATE TEMPORARY TABLE f (a INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/none', 'format' = 'pravega-registry',
        'pravega-registry.uri' = '${REGISTRY_URI}', 'pravega-registry.namespace' = '${scope}', 'pravega-registry.group-id' = 'g')`,
    );
    await expect(run(env, 'SELECT * FROM f')).rejects.toThrow("The 'pravega-registry' format works with the 'pravega' connector only, not 'filesystem'");
    // No group to write into.
    await controller.createStream(scope, 'nogroup', { scaling: { kind: 'fixed', segments: 1 } });
    await run(env, table('nogroup', 'a INT', 'nogroup'));
    await expect(run(env, 'INSERT INTO nogroup VALUES (1)')).rejects.toThrow(/has no group 'nogroup' \('pravega-registry.group-id'\)/);
    // A Json group written as Avro.
    await controller.createStream(scope, 'jsongroup', { scaling: { kind: 'fixed', segments: 1 } });
    await registry.createGroup('jsongroup', { serializationFormat: 'Json' });
    await run(env, table('jsongroup', 'a INT', 'jsongroup'));
    await expect(run(env, 'INSERT INTO jsongroup VALUES (1)')).rejects.toThrow(/its group holds Json schemas. Set 'pravega-registry.format' = 'Json'/);
    // An event without the registry's header.
    await controller.createStream(scope, 'headerless', { scaling: { kind: 'fixed', segments: 1 } });
    const writer = await EventStreamWriter.open(controller, pool, scope, 'headerless');
    await writer.writeEvents([{ payload: Buffer.from('{"a": 1}') }]);
    await writer.close();
    await run(env, table('headerless', 'a INT', 'headerless'));
    await expect(run(env, 'SELECT * FROM headerless')).rejects.toThrow(/does not start with the registry's header/);
    // The registry is down while reading.
    await run(env, table('down', 'id INT NOT NULL, name STRING NOT NULL', 'hdr', { 'pravega-registry.uri': 'http://127.0.0.1:1' }));
    await expect(run(env, 'SELECT * FROM down')).rejects.toThrow(/looking up its encoding id \d+ failed/);
  });
});
