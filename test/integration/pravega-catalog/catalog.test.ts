import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../../src/api/table-environment.js';
import { ControllerClient } from '../../../src/connectors/pravega/client/index.js';
import { PravegaRegistryClient } from '../../../src/connectors/pravega/registry/registry-client.js';
import { pravegaAvailable } from '../pravega/pravega-env.js';
import { registryAvailable } from '../pravega-registry/registry-env.js';
import { CONTROLLER_URI, REGISTRY_URI, createCatalogSql, newEnv, run, uniqueName, valuesOf } from './catalog-env.js';

const available = (await pravegaAvailable()) && (await registryAvailable());

/**
 * A bounded copy of a catalog table's definition, for batch reads: the catalog supplies every option but the end of
 * the scan (Flink users would write an OPTIONS hint, which Sluice parses but does not apply yet).
 */
async function bounded(env: TableEnvironment, name: string, table: string): Promise<void> {
  await run(env, `CREATE TEMPORARY TABLE ${name} WITH ('scan.execution.type' = 'batch') LIKE ${table}`);
}

describe.skipIf(!available)('Pravega catalog against real Pravega and the Pravega Schema Registry', () => {
  const scope = uniqueName('sluicecat');
  const envs: TableEnvironment[] = [];
  let controller: ControllerClient;
  let registry: PravegaRegistryClient;

  beforeAll(async () => {
    controller = new ControllerClient(CONTROLLER_URI);
    registry = new PravegaRegistryClient({ uri: REGISTRY_URI!, namespace: scope });
    await controller.createScope(scope);
  });
  afterAll(async () => {
    for (const e of envs) await e.close();
    controller?.close();
  });

  it('lists scopes as databases and only streams with a schema group as tables', async () => {
    await controller.createStream(scope, 'plain', { scaling: { kind: 'fixed', segments: 1 } });
    await controller.createStream(scope, 'users', { scaling: { kind: 'fixed', segments: 1 } });
    await registry.createGroup('users', { serializationFormat: 'Avro', compatibility: 'AllowAny' });
    await registry.addSchema('users', {
      type: 'app.User',
      serializationFormat: 'Avro',
      schema: JSON.stringify({
        type: 'record',
        name: 'User',
        namespace: 'app',
        fields: [
          { name: 'name', type: 'string' },
          { name: 'age', type: ['null', 'int'] },
          { name: 'tags', type: { type: 'array', items: 'string' } },
          { name: 'joined', type: { type: 'long', logicalType: 'timestamp-millis' } },
          { name: 'balance', type: { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 } },
        ],
      }),
    });
    const env = newEnv(envs);
    await run(env, createCatalogSql('p', scope));
    await run(env, 'USE CATALOG p');
    expect((await valuesOf(env, 'SHOW DATABASES')).map((r) => r[0])).toContain(scope);
    expect(await valuesOf(env, 'SHOW TABLES')).toEqual([['users']]);
    const described = await valuesOf(env, 'DESCRIBE users');
    expect(described.map((r) => r.slice(0, 3))).toEqual([
      ['name', 'STRING', false],
      ['age', 'INT', true],
      ['tags', 'ARRAY<STRING NOT NULL>', false],
      ['joined', 'TIMESTAMP(3)', false],
      ['balance', 'DECIMAL(10, 2)', false],
    ]);
  });

  it('CREATE TABLE creates the stream and registers the schema; INSERT writes registry events that SELECT reads back', async () => {
    const env = newEnv(envs);
    await run(env, createCatalogSql('p', scope));
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    await run(env, `CREATE TABLE p.${scope}.orders (id BIGINT NOT NULL, item STRING, price DECIMAL(8, 2), ts TIMESTAMP(3))`);
    expect(await controller.streamExists(scope, 'orders')).toBe(true);
    const group = await registry.getGroupProperties('orders');
    expect(group).toMatchObject({ serializationFormat: 'Avro', compatibility: 'AllowAny', allowMultipleTypes: true });
    expect((await registry.getSchemas('orders')).length).toBe(1);

    await run(env, `INSERT INTO p.${scope}.orders VALUES (1, 'apple', 1.50, TIMESTAMP '2024-01-02 03:04:05.678'), (2, CAST(NULL AS STRING), 20.00, CAST(NULL AS TIMESTAMP(3)))`);
    // The writer used the registered schema: no second version.
    expect((await registry.getSchemas('orders')).length).toBe(1);
    await bounded(env, 'orders_read', `p.${scope}.orders`);
    const rows = await valuesOf(env, 'SELECT id, item, CAST(price AS STRING), ts FROM orders_read ORDER BY id');
    expect(rows).toEqual([
      [1n, 'apple', '1.50', Date.UTC(2024, 0, 2, 3, 4, 5, 678)],
      [2n, null, '20.00', null],
    ]);
    expect((await valuesOf(env, `SHOW TABLES FROM p.${scope}`)).map((r) => r[0])).toContain('orders');
  });

  it('runs jobs over a catalog table at parallelism 2 on worker threads, which never write to the catalog', { timeout: 120_000 }, async () => {
    const env = newEnv(envs);
    const warnings: string[] = [];
    env.onWarning((m) => warnings.push(m));
    await run(env, createCatalogSql('p', scope));
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    await run(env, "SET 'parallelism.default' = '2'");
    await run(env, "SET 'execution.worker-threads' = '2'");
    await run(env, `CREATE TABLE p.${scope}.sales (id BIGINT NOT NULL, shop STRING, amount BIGINT)`);
    await run(env, `CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3000')`);
    // Workers plan both jobs with the table the main thread resolved: a replayed CREATE TABLE would register again.
    await run(env, `INSERT INTO p.${scope}.sales SELECT id, CONCAT('shop-', CAST(MOD(id, 3) AS STRING)), id FROM ids`);
    await bounded(env, 'sales_read', `p.${scope}.sales`);
    const rows = await valuesOf(env, 'SELECT shop, COUNT(*), SUM(amount) FROM sales_read GROUP BY shop');
    const sum = (k: number): bigint => BigInt(Array.from({ length: 1000 }, (_, i) => 3 * i + (k === 0 ? 3 : k)).reduce((a, b) => a + b, 0));
    expect(rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([0, 1, 2].map((k) => [`shop-${k}`, 1000n, sum(k)]));
    expect((await registry.getSchemas('sales')).length).toBe(1);
    expect(warnings).toEqual([]);
  });

  it('reads events whose writer schema is an older version, resolving it into the newest one', async () => {
    const env = newEnv(envs);
    await run(env, createCatalogSql('p', scope));
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    await run(env, `CREATE TABLE p.${scope}.evolving (id INT NOT NULL, name STRING)`);
    await run(env, `INSERT INTO p.${scope}.evolving VALUES (1, 'one')`);
    // A new version adds a column with a default; events of the first version read it as NULL.
    await run(env, `ALTER TABLE p.${scope}.evolving ADD score DOUBLE`);
    expect((await registry.getSchemas('evolving')).length).toBe(2);
    await run(env, `INSERT INTO p.${scope}.evolving VALUES (2, 'two', 2.5)`);
    await bounded(env, 'evolving_read', `p.${scope}.evolving`);
    const rows = await valuesOf(env, 'SELECT id, name, score FROM evolving_read ORDER BY id');
    expect(rows).toEqual([
      [1, 'one', null],
      [2, 'two', 2.5],
    ]);
  });

  it("ALTER TABLE registers the next schema under the group's rule, and a change the rule refuses names it", async () => {
    await controller.createStream(scope, 'strict', { scaling: { kind: 'fixed', segments: 1 } });
    await registry.createGroup('strict', { serializationFormat: 'Avro', compatibility: 'Backward' });
    await registry.addSchema('strict', {
      type: 'record',
      serializationFormat: 'Avro',
      schema: JSON.stringify({ type: 'record', name: 'record', fields: [{ name: 'a', type: 'int' }] }),
    });
    const env = newEnv(envs);
    await run(env, createCatalogSql('p', scope));
    // A new NOT NULL column has no default: a reader of the new schema cannot read old events.
    await expect(run(env, `ALTER TABLE p.${scope}.strict ADD b INT NOT NULL`)).rejects.toThrow(/not compatible with the group's schemas under its compatibility rule 'Backward'/);
    expect((await registry.getSchemas('strict')).length).toBe(1);
    await run(env, `ALTER TABLE p.${scope}.strict ADD c STRING`);
    expect((await registry.getSchemas('strict')).length).toBe(2);
    expect((await valuesOf(env, `DESCRIBE p.${scope}.strict`)).map((r) => r.slice(0, 2))).toEqual([
      ['a', 'INT'],
      ['c', 'STRING'],
    ]);
  });

  it('a streaming SELECT keeps reading while another job writes events of a newer schema version', { timeout: 120_000 }, async () => {
    const writer = newEnv(envs);
    await run(writer, createCatalogSql('p', scope));
    await run(writer, "SET 'execution.runtime-mode' = 'batch'");
    await run(writer, `CREATE TABLE p.${scope}.live (k STRING NOT NULL, n INT)`);
    await run(writer, `INSERT INTO p.${scope}.live VALUES ('a', 1), ('b', 2)`);

    const reader = newEnv(envs);
    await run(reader, createCatalogSql('p', scope));
    const result = (await reader.executeSql(`SELECT k, n FROM p.${scope}.live`)).collect();
    const seen: unknown[][] = [];
    try {
      for await (const row of result) {
        seen.push([...row.fields]);
        if (seen.length === 2) {
          // While the job runs: a new schema version, and events written with it (their encoding id is new to the job).
          await run(writer, `ALTER TABLE p.${scope}.live ADD extra STRING`);
          await run(writer, `INSERT INTO p.${scope}.live VALUES ('c', 3, 'x'), ('d', CAST(NULL AS INT), 'y')`);
        }
        if (seen.length === 4) break;
      }
    } finally {
      await result.close();
    }
    expect(seen).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', null],
    ]);
    expect((await registry.getSchemas('live')).length).toBe(2);
  });

  it('a Json catalog registers a JSON Schema and writes and reads JSON events', async () => {
    const env = newEnv(envs);
    await run(env, createCatalogSql('pj', scope, { 'serialization.format': 'Json' }));
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    await run(env, `CREATE TABLE pj.${scope}.clicks (\`user\` STRING NOT NULL, n BIGINT, tags ARRAY<STRING>)`);
    const [schema] = await registry.getSchemas('clicks');
    expect(schema!.schemaInfo.serializationFormat).toBe('Json');
    expect(JSON.parse(schema!.schemaInfo.schema)).toMatchObject({ type: 'object', required: ['user'], properties: { n: { type: ['integer', 'null'] } } });
    await run(env, `INSERT INTO pj.${scope}.clicks VALUES ('ann', 3, ARRAY['a', 'b']), ('bob', CAST(NULL AS BIGINT), CAST(NULL AS ARRAY<STRING>))`);
    expect((await registry.getSchemas('clicks')).length).toBe(1);
    await bounded(env, 'clicks_read', `pj.${scope}.clicks`);
    const rows = await valuesOf(env, 'SELECT `user`, n, tags FROM clicks_read ORDER BY `user`');
    expect(rows).toEqual([
      ['ann', 3n, ['a', 'b']],
      ['bob', null, null],
    ]);
    expect((await valuesOf(env, `DESCRIBE pj.${scope}.clicks`)).map((r) => r.slice(0, 3))).toEqual([
      ['user', 'STRING', false],
      ['n', 'BIGINT', true],
      ['tags', 'ARRAY<STRING>', true],
    ]);
  });

  it('DROP TABLE deletes the stream and the group; CREATE and DROP DATABASE create and delete the scope', async () => {
    const env = newEnv(envs);
    await run(env, createCatalogSql('p', scope));
    const db = uniqueName('sluicecatdb');
    await run(env, `CREATE DATABASE p.${db}`);
    expect(await controller.scopeExists(db)).toBe(true);
    await run(env, `CREATE TABLE p.${db}.t (a INT)`);
    await expect(run(env, `DROP DATABASE p.${db}`)).rejects.toThrow(`Database ${db} in catalog p is not empty.`);
    await run(env, `DROP TABLE p.${db}.t`);
    expect(await controller.streamExists(db, 't')).toBe(false);
    const inDb = new PravegaRegistryClient({ uri: REGISTRY_URI!, namespace: db });
    expect((await inDb.listGroups()).has('t')).toBe(false);
    await run(env, `CREATE TABLE p.${db}.u (a INT)`);
    await run(env, `DROP DATABASE p.${db} CASCADE`);
    expect(await controller.scopeExists(db)).toBe(false);
    expect((await inDb.listGroups()).has('u')).toBe(false);
  });

  it('names the catalog and the option when the default scope is missing, the registry is down, or a stream has no schema', async () => {
    const env = newEnv(envs);
    await expect(run(env, createCatalogSql('bad', 'no_such_scope_x1'))).rejects.toThrow(
      /Configured default database 'no_such_scope_x1' \('default-database'\) doesn't exist in catalog 'bad'/,
    );
    await expect(run(env, createCatalogSql('down', scope, { 'schema-registry-uri': 'http://127.0.0.1:1' }))).rejects.toThrow(
      /Pravega catalog 'down' could not reach the schema registry: the schema registry at 'http:\/\/127\.0\.0\.1:1' \('schema-registry-uri'\) failed/,
    );
    await run(env, createCatalogSql('p', scope));
    await expect(run(env, `SELECT * FROM p.${scope}.plain`)).rejects.toThrow(
      `Table '${scope}.plain' of catalog 'p': Pravega stream '${scope}/plain' has no schema in the schema registry`,
    );
    await expect(run(env, 'SHOW TABLES FROM p.no_such_scope_x2')).rejects.toThrow(/no_such_scope_x2/);
    await expect(run(env, `CREATE TABLE p.${scope}.computed (a INT, b AS a + 1)`)).rejects.toThrow(/can only have physical columns/);
    expect(await controller.streamExists(scope, 'computed')).toBe(false);
  });
});
