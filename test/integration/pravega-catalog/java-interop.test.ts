import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../../src/api/table-environment.js';
import { ControllerClient, EventStreamWriter, SegmentStoreConnectionPool } from '../../../src/connectors/pravega/client/index.js';
import { PRAVEGA_LIB, pravegaAvailable } from '../pravega/pravega-env.js';
import { registryAvailable } from '../pravega-registry/registry-env.js';
import { CONTROLLER_URI, REGISTRY_URI, createCatalogSql, newEnv, run, uniqueName, valuesOf } from './catalog-env.js';

/**
 * Sluice's `pravega-registry` events against the registry's own Java serializers (schemaregistry-serializers-avro and
 * -json 0.5.0, test/java/pravega-registry-interop): Sluice reads what the Java serializers wrote, into the columns the
 * catalog derives from the Java application's schema, and the Java deserializers read what Sluice wrote. The jars
 * come from `scripts/pravega-registry.sh fetch` (run here when missing); the Pravega Java client jar only lends its
 * `Serializer` interface.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const cache = join(process.env.SLUICE_CACHE ?? join(root, '.cache'), 'pravega-registry');
const serializers = join(cache, 'serializers-0.5.0');
const source = join(root, 'test', 'java', 'pravega-registry-interop', 'src', 'main', 'java', 'dev', 'sluice', 'interop', 'RegistryInterop.java');

const available = (await pravegaAvailable()) && (await registryAvailable());

function javaReady(): boolean {
  if (existsSync(join(serializers, '.complete'))) return true;
  try {
    execFileSync('bash', [join(root, 'scripts', 'pravega-registry.sh'), 'fetch'], { stdio: 'pipe', timeout: 300_000, env: { ...process.env, SLUICE_CACHE: join(cache, '..') } });
  } catch (e) {
    if (process.env.CI) throw e;
    console.warn(`SKIPPING the registry's Java interop test: cannot fetch the serializers (${(e as Error).message.split('\n')[0]})`);
    return false;
  }
  return existsSync(join(serializers, '.complete'));
}

const ready = available && existsSync(join(PRAVEGA_LIB, 'pravega-client-0.13.0.jar')) && javaReady();

describe.skipIf(!ready)("pravega-registry events and the registry's Java serializers", () => {
  const scope = uniqueName('sluicejreg');
  const classes = mkdtempSync(join(tmpdir(), 'sluice-registry-interop-'));
  const classpath = [classes, `${serializers}/*`, join(PRAVEGA_LIB, 'pravega-client-0.13.0.jar'), join(PRAVEGA_LIB, 'pravega-common-0.13.0.jar')].join(':');
  const envs: TableEnvironment[] = [];
  let controller: ControllerClient;
  let pool: SegmentStoreConnectionPool;

  function java(args: string[], input?: string): string {
    return execFileSync('java', ['-cp', classpath, 'dev.sluice.interop.RegistryInterop', ...args], {
      input,
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  }

  beforeAll(async () => {
    execFileSync('javac', ['-d', classes, '-cp', classpath, source], { timeout: 120_000, stdio: 'pipe' });
    controller = new ControllerClient(CONTROLLER_URI);
    pool = new SegmentStoreConnectionPool(undefined);
    await controller.createScope(scope);
  }, 150_000);
  afterAll(async () => {
    for (const e of envs) await e.close();
    await pool?.close();
    controller?.close();
    rmSync(classes, { recursive: true, force: true });
  });

  it("reads what the Java serializer wrote, with the columns of the Java application's schema", { timeout: 120_000 }, async () => {
    await controller.createStream(scope, 'fromjava', { scaling: { kind: 'fixed', segments: 1 } });
    const lines = java(['write', REGISTRY_URI!, scope, 'fromjava', '50']).trim().split('\n');
    expect(lines).toHaveLength(50);
    const writer = await EventStreamWriter.open(controller, pool, scope, 'fromjava');
    await writer.writeEvents(lines.map((l) => ({ routingKey: 'k', payload: Buffer.from(l, 'hex') })));
    await writer.close();

    const env = newEnv(envs);
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    await run(env, createCatalogSql('p', scope));
    expect((await valuesOf(env, `DESCRIBE p.${scope}.fromjava`)).map((r) => r.slice(0, 3))).toEqual([
      ['sensor', 'STRING', false],
      ['value', 'INT', false],
      ['note', 'STRING', true],
    ]);
    await run(env, `CREATE TEMPORARY TABLE fromjava WITH ('scan.execution.type' = 'batch') LIKE p.${scope}.fromjava`);
    const rows = await valuesOf(env, 'SELECT sensor, `value`, note FROM fromjava');
    expect(rows).toEqual(Array.from({ length: 50 }, (_, i) => [`s${i % 3}`, i, i % 2 === 0 ? null : `odd ${i}`]));
  });

  it("the Java deserializer reads what Sluice wrote, in a table of its own and in the Java application's group", { timeout: 120_000 }, async () => {
    const env = newEnv(envs);
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    await run(env, createCatalogSql('p', scope));
    await run(env, `CREATE TABLE p.${scope}.fromsluice (id BIGINT NOT NULL, name STRING, price DOUBLE)`);
    await run(env, `INSERT INTO p.${scope}.fromsluice VALUES (1, 'one', 1.25), (2, CAST(NULL AS STRING), 20.00)`);
    // Into the group the Java application made: Sluice writes with its schema (app.Reading), as the table matches it.
    await run(env, `INSERT INTO p.${scope}.fromjava VALUES ('sx', 1000, 'from sluice')`);

    const raw = async (stream: string): Promise<string> => {
      await run(
        env,
        `CREATE TEMPORARY TABLE raw_${stream} (b BYTES) WITH ('connector' = 'pravega', 'controller-uri' = '${CONTROLLER_URI}', 'scope' = '${scope}',
           'scan.streams' = '${stream}', 'scan.execution.type' = 'batch', 'format' = 'raw')`,
      );
      return (await valuesOf(env, `SELECT b FROM raw_${stream}`)).map((r) => Buffer.from(r[0] as Uint8Array).toString('hex')).join('\n');
    };
    const own = java(['read', REGISTRY_URI!, scope, 'fromsluice'], await raw('fromsluice')).trim().split('\n');
    expect(own.map((l) => l.split('\t'))).toEqual([
      ['record', '{"id": 1, "name": "one", "price": 1.25}'],
      ['record', '{"id": 2, "name": null, "price": 20.0}'],
    ]);
    const theirs = java(['read', REGISTRY_URI!, scope, 'fromjava'], await raw('fromjava')).trim().split('\n');
    expect(theirs).toHaveLength(51);
    expect(theirs[50]!.split('\t')).toEqual(['app.Reading', '{"sensor": "sx", "value": 1000, "note": "from sluice"}']);
  });

  it('JSON both ways: Sluice reads what the Java JSON serializer wrote (schema from a POJO), Java reads what Sluice wrote', { timeout: 120_000 }, async () => {
    await controller.createStream(scope, 'jsonfromjava', { scaling: { kind: 'fixed', segments: 1 } });
    const lines = java(['writejson', REGISTRY_URI!, scope, 'jsonfromjava', '20']).trim().split('\n');
    const writer = await EventStreamWriter.open(controller, pool, scope, 'jsonfromjava');
    await writer.writeEvents(lines.map((l) => ({ routingKey: 'k', payload: Buffer.from(l, 'hex') })));
    await writer.close();

    const env = newEnv(envs);
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    await run(env, createCatalogSql('pj', scope, { 'serialization.format': 'Json' }));
    // Jackson's schema lists the POJO's properties without "required": nullable columns.
    expect((await valuesOf(env, `DESCRIBE pj.${scope}.jsonfromjava`)).map((r) => r.slice(0, 3))).toEqual([
      ['user', 'STRING', true],
      ['n', 'BIGINT', true],
    ]);
    await run(env, `CREATE TEMPORARY TABLE jsonfromjava WITH ('scan.execution.type' = 'batch') LIKE pj.${scope}.jsonfromjava`);
    expect(await valuesOf(env, 'SELECT `user`, n FROM jsonfromjava')).toEqual(Array.from({ length: 20 }, (_, i) => [`u${i}`, BigInt(i * 10)]));

    await run(env, `CREATE TABLE pj.${scope}.jsonfromsluice (\`user\` STRING NOT NULL, n BIGINT, tags ARRAY<STRING>)`);
    await run(env, `INSERT INTO pj.${scope}.jsonfromsluice VALUES ('ann', 5, ARRAY['a']), ('bob', CAST(NULL AS BIGINT), CAST(NULL AS ARRAY<STRING>))`);
    await run(
      env,
      `CREATE TEMPORARY TABLE raw_jsonfromsluice (b BYTES) WITH ('connector' = 'pravega', 'controller-uri' = '${CONTROLLER_URI}', 'scope' = '${scope}',
         'scan.streams' = 'jsonfromsluice', 'scan.execution.type' = 'batch', 'format' = 'raw')`,
    );
    const hex = (await valuesOf(env, 'SELECT b FROM raw_jsonfromsluice')).map((r) => Buffer.from(r[0] as Uint8Array).toString('hex')).join('\n');
    expect(java(['readjson', REGISTRY_URI!, scope, 'jsonfromsluice'], hex).trim().split('\n')).toEqual([
      '{"user":"ann","n":5,"tags":["a"]}',
      '{"user":"bob","n":null,"tags":null}',
    ]);

    // Through a catalog whose 'serialization.format' is Avro: the table writes JSON, its group's format.
    await run(env, createCatalogSql('pa', scope));
    await run(env, `INSERT INTO pa.${scope}.jsonfromjava VALUES ('zed', 99)`);
    await run(
      env,
      `CREATE TEMPORARY TABLE raw_jsonfromjava (b BYTES) WITH ('connector' = 'pravega', 'controller-uri' = '${CONTROLLER_URI}', 'scope' = '${scope}',
         'scan.streams' = 'jsonfromjava', 'scan.execution.type' = 'batch', 'format' = 'raw')`,
    );
    const all = (await valuesOf(env, 'SELECT b FROM raw_jsonfromjava')).map((r) => Buffer.from(r[0] as Uint8Array).toString('hex')).join('\n');
    const read = java(['readjson', REGISTRY_URI!, scope, 'jsonfromjava'], all).trim().split('\n');
    expect(read).toHaveLength(21);
    expect(read[20]).toBe('{"user":"zed","n":99}');
  });
});
