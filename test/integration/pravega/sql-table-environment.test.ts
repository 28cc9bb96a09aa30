import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { ControllerClient } from '../../../src/connectors/pravega/client/index.js';
import { Decimal } from '../../../src/types/decimal.js';
import type { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';
import { keysOutOfOrder, pravegaTableDdl } from './connector-helpers.js';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

const available = await pravegaAvailable();

async function rowsOf(env: TableEnvironment, sql: string): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r);
  return out;
}

/** The segment name inside Java's EventPointer bytes: 8 bytes of serializer header, then a writeUTF string. */
function segmentOfPointer(p: Uint8Array): string {
  const b = Buffer.from(p);
  return b.subarray(10, 10 + b.readUInt16BE(8)).toString('utf8');
}

async function run(env: TableEnvironment, sql: string): Promise<void> {
  await (await env.executeSql(sql)).await();
}

describe.skipIf(!available)('Pravega tables in SQL through TableEnvironment', () => {
  const scope = uniqueName('sluicesql');
  let controller: ControllerClient;
  const envs: TableEnvironment[] = [];
  const newEnv = (): TableEnvironment => {
    const e = TableEnvironment.create();
    envs.push(e);
    return e;
  };

  /** A Pravega table over `stream` (read and written), JSON events. */
  function ddl(table: string, stream: string, columns: string, extra: Record<string, string> = {}): string {
    return pravegaTableDdl(table, columns, scope, stream, extra);
  }

  beforeAll(async () => {
    controller = new ControllerClient(CONTROLLER_URI);
    await controller.createScope(scope);
  });
  afterAll(async () => {
    controller?.close();
    for (const e of envs) await e.close();
  });

  it('writes exact values with INSERT ... VALUES and reads the same values back with a bounded SELECT', async () => {
    const env = newEnv();
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    await run(env, ddl('typed', 'typed', 'id BIGINT, name STRING, price DECIMAL(12, 3), ts TIMESTAMP(3), ok BOOLEAN', { 'sink.routing-key.field.name': 'name' }));
    await run(
      env,
      `INSERT INTO typed VALUES
         (9007199254740993, 'a', 12345678.901, TIMESTAMP '2024-02-29 23:59:58.123', TRUE),
         (-1, 'b', -0.001, TIMESTAMP '1970-01-01 00:00:00.000', FALSE),
         (2, 'ü€', 0.000, TIMESTAMP '2038-01-19 03:14:08.999', CAST(NULL AS BOOLEAN))`,
    );
    const rows = await rowsOf(env, 'SELECT id, name, price, ts, ok FROM typed');
    const got = rows.map((r) => [r.kind, ...r.fields.map((f) => (f instanceof Decimal ? f.toString() : f))]).sort((a, b) => String(a[2]).localeCompare(String(b[2])));
    expect(got).toEqual([
      [RowKind.INSERT, 9007199254740993n, 'a', '12345678.901', Date.UTC(2024, 1, 29, 23, 59, 58, 123), true],
      [RowKind.INSERT, -1n, 'b', '-0.001', 0, false],
      [RowKind.INSERT, 2n, 'ü€', '0.000', Date.UTC(2038, 0, 19, 3, 14, 8, 999), null],
    ]);
  });

  it('moves 3000 datagen rows through a 3-segment stream keyed by a column, each key in order, with event pointers', async () => {
    await controller.createStream(scope, 'keyed', { scaling: { kind: 'fixed', segments: 3 } });
    const env = newEnv();
    await run(env, "SET 'parallelism.default' = '1'");
    await run(
      env,
      `CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3000',
         'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3000')`,
    );
    await run(env, ddl('keyed', 'keyed', 'k STRING, id BIGINT, ptr BYTES METADATA FROM \'event_pointer\' VIRTUAL', { 'sink.routing-key.field.name': 'k' }));
    // Streaming INSERT of a bounded source: the job ends when datagen does.
    await run(env, "INSERT INTO keyed SELECT CONCAT('key-', CAST(id % 11 AS STRING)), id FROM gen");

    // Streaming mode, bounded scan: the SELECT ends at the tail the source saw when it started.
    const rows = await rowsOf(env, 'SELECT k, id, ptr FROM keyed');
    expect(rows).toHaveLength(3000);
    const ids = rows.map((r) => Number(r.fields[1])).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    for (const r of rows) expect(r.fields[0]).toBe(`key-${Number(r.fields[1]) % 11}`);
    expect(keysOutOfOrder(rows.map((r) => ({ key: String(r.fields[0]), seq: Number(r.fields[1]) })))).toEqual([]);
    // Every event has its own pointer (segment + offset + length).
    const pointers = new Set(rows.map((r) => Buffer.from(r.fields[2] as Uint8Array).toString('hex')));
    expect(pointers.size).toBe(3000);

    // The routing key decides the segment: each key sits in one segment (named inside its pointer), and the keys spread.
    const segmentOfKey = new Map<string, Set<string>>();
    for (const r of rows) {
      const name = segmentOfPointer(r.fields[2] as Uint8Array);
      expect(name).toMatch(new RegExp(`^${scope}/keyed/\\d+`));
      const set = segmentOfKey.get(String(r.fields[0])) ?? new Set<string>();
      set.add(name);
      segmentOfKey.set(String(r.fields[0]), set);
    }
    for (const set of segmentOfKey.values()) expect(set.size).toBe(1);
    expect(new Set([...segmentOfKey.values()].map((s) => [...s][0])).size).toBeGreaterThan(1);

    // An aggregate in batch mode over the same table.
    await run(env, "SET 'execution.runtime-mode' = 'batch'");
    const agg = await rowsOf(env, 'SELECT COUNT(*), COUNT(DISTINCT k), SUM(id) FROM keyed');
    expect(agg.map((r) => r.fields)).toEqual([[3000n, 11n, 4501500n]]);
  });
});
