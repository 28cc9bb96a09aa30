// A connector factory registered in code without a module, on worker threads (issue #19 item 4): no worker can load
// it, so the vertices running its sources and sinks stay on the main thread, and the rest of the job runs on the
// workers, which plan with stand-ins answering as the main thread's objects did (api/code-table-replay.ts). The
// results are those of parallelism 1, and the warning names only the pinned operators.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { DataGenTableSourceFactory } from '../../src/connectors/datagen/datagen-table-source-factory.js';
import { FileSystemTableFactory } from '../../src/connectors/filesystem/filesystem-table-factory.js';
import type { DynamicTableFactoryContext, DynamicTableSinkFactory, DynamicTableSourceFactory } from '../../src/factories/dynamic-table-factory.js';
import type { DynamicTableSink } from '../../src/factories/dynamic-table-sink.js';
import type { ChangelogMode } from '../../src/factories/changelog-mode.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';

const UDFS = fileURLToPath(new URL('../runtime/workers/worker-udfs.mjs', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../../dist/api/sql-worker-main.js', import.meta.url)));
if (!BUILT && process.env.CI) throw new Error("dist/ is missing; CI must run 'npm run build' before the tests.");

const ROWS = 20_000;
const PARALLEL = { 'parallelism.default': '2', 'execution.worker-threads': '2' };

const envs: TableEnvironment[] = [];
afterEach(async () => {
  for (const e of envs.splice(0)) await e.close();
});

/** datagen under another name, as a closure: what a user's own connector looks like to a worker thread. */
function codeSequence(): DynamicTableSourceFactory {
  const datagen = new DataGenTableSourceFactory();
  return {
    factoryIdentifier: 'code-seq',
    requiredOptions: () => datagen.requiredOptions(),
    optionalOptions: () => datagen.optionalOptions(),
    prefixesPassedThrough: () => datagen.prefixesPassedThrough(),
    createDynamicTableSource: (ctx: DynamicTableFactoryContext) => datagen.createDynamicTableSource(ctx),
  };
}

/** A sink handing every row to the caller's array: it can only run where the array is. */
function codeCollect(into: Row[]): DynamicTableSinkFactory {
  const sink: DynamicTableSink = {
    getChangelogMode: (requested: ChangelogMode) => requested,
    asSummaryString: () => 'code-collect',
    getSinkRuntimeProvider: () => ({
      sink: {
        createWriter: () => ({
          write: async (rows: readonly Row[]) => void into.push(...rows),
          flush: async () => {},
          close: async () => {},
        }),
      },
    }),
  };
  return { factoryIdentifier: 'code-collect', requiredOptions: () => [], optionalOptions: () => [], createDynamicTableSink: () => sink };
}

/** The filesystem connector under another name: projection, filter, partition and metadata push-down to replay. */
function codeFiles(): DynamicTableSourceFactory {
  const fs = new FileSystemTableFactory();
  return {
    factoryIdentifier: 'code-fs',
    requiredOptions: () => fs.requiredOptions(),
    optionalOptions: () => fs.optionalOptions(),
    createDynamicTableSource: (ctx: DynamicTableFactoryContext) => fs.createDynamicTableSource(ctx),
  };
}

/** A lookup source answering from a map in this thread's memory: `name-<id>` for ids below 100. */
function codeLookup(): DynamicTableSourceFactory {
  const names = new Map(Array.from({ length: 100 }, (_, i) => [BigInt(i), `name-${i}`]));
  return {
    factoryIdentifier: 'code-lookup',
    requiredOptions: () => [],
    optionalOptions: () => [],
    createDynamicTableSource: () => ({
      kind: 'lookup-source',
      asSummaryString: () => 'code-lookup',
      lookup: () => async (key: readonly unknown[]) => {
        const name = names.get(key[0] as bigint);
        return name === undefined ? [] : [Row.insert(key[0], name)];
      },
    }),
  };
}

async function session(settings: Record<string, string>, warnings: string[]): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ mode: 'streaming', config: settings });
  env.onWarning((m) => warnings.push(m));
  envs.push(env);
  await env.executeSql(`CREATE TEMPORARY FUNCTION tid AS '${UDFS}#tid'`);
  return env;
}

/** The final rows of a changelog, as sorted texts. */
function materialize(rows: readonly Row[]): string[] {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const text = JSON.stringify(row.fields, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    counts.set(text, (counts.get(text) ?? 0) + (row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER ? 1 : -1));
  }
  const out: string[] = [];
  for (const [t, n] of counts) for (let i = 0; i < n; i++) out.push(t);
  return out.sort();
}

async function collected(env: TableEnvironment, query: string): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const r of (await env.executeSql(query)).collect()) rows.push(r as Row);
  return rows;
}

const CODE_SEQ = `CREATE TEMPORARY TABLE cnums (id BIGINT, label STRING, extra INT) WITH ('connector' = 'code-seq',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${ROWS}', 'rows-per-second' = '100000000')`;

/** Per key of MOD(id, 50): the key, count and sum of ids, as `k c s`. */
const expectedGroups = Array.from({ length: 50 }, (_, k) => {
  const ids = Array.from({ length: ROWS / 50 }, (_, i) => BigInt(i * 50 + (k === 0 ? 50 : k)));
  return `${k} ${ids.length} ${ids.reduce((a, b) => a + b, 0n)}`;
}).sort();

/** The first three fields of materialized rows as `k c s`, whatever the key's type. */
const groupsOf = (rows: readonly string[]): string[] =>
  rows.map((r) => (JSON.parse(r) as unknown[]).slice(0, 3).map((v) => String(v).replace(/n$/, '')).join(' ')).sort();

describe.skipIf(!BUILT)('a connector registered in code without a module, on worker threads', () => {
  it('keeps its source on the main thread and runs the aggregate over it on the workers, with the rows of parallelism 1', async () => {
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings);
    env.registerFactory(codeSequence());
    await env.executeSql(CODE_SEQ);
    // tid after the aggregate: the thread of the aggregate's subtask that owns the key.
    const query = 'SELECT k, c, s, tid(k) FROM (SELECT MOD(id, 50) AS k, COUNT(*) AS c, SUM(id) AS s FROM cnums GROUP BY MOD(id, 50))';
    const rows = materialize(await collected(env, query));
    expect(groupsOf(rows)).toEqual(expectedGroups);
    const threads = new Set(rows.map((r) => JSON.parse(r)[3] as number));
    expect([...threads].sort()).toEqual([0, expect.any(Number)]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^'execution\.worker-threads' is on, but in job 'collect' these operators run all their subtasks on the main thread: TableSourceScan\(table=\[\[default_catalog, default_database, cnums\]\], fields=\[id, label, extra\]\) \(connector 'code-seq' is registered in code without a module\)\. The rest of the job runs on worker threads\./,
    );
    expect(warnings[0]).toMatch(/registerFactory\(factory, \{ module: 'file\.js#export' \}\)/);
  }, 60_000);

  it('keeps its sink on the main thread and reads the source on the workers, the sink getting every change', async () => {
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings);
    const into: Row[] = [];
    env.registerFactory(codeCollect(into));
    await env.executeSql(`CREATE TEMPORARY TABLE nums (id BIGINT) WITH ('connector' = 'datagen',
      'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${ROWS}', 'rows-per-second' = '100000000')`);
    await env.executeSql('CREATE TEMPORARY TABLE out_t (k BIGINT, c BIGINT, s BIGINT, t INT) WITH (\'connector\' = \'code-collect\')');
    // MAX(t): some rows were read by the source's subtask in a worker.
    await (await env.executeSql('INSERT INTO out_t SELECT k, COUNT(*), SUM(id), MAX(t) FROM (SELECT MOD(id, 50) AS k, id, tid(id) AS t FROM nums) GROUP BY k')).await();
    const rows = materialize(into);
    expect(groupsOf(rows)).toEqual(expectedGroups);
    expect(rows.some((r) => (JSON.parse(r)[3] as number) > 0)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/run all their subtasks on the main thread: .*Sink\(table=\[default_catalog\.default_database\.out_t\].* \(connector 'code-collect' is registered in code without a module\)\. The rest of the job runs on worker threads\./);
  }, 60_000);

  it('gives the rows of parallelism 1 without workers, and no warning', async () => {
    const warnings: string[] = [];
    const env = await session({ 'parallelism.default': '1' }, warnings);
    env.registerFactory(codeSequence());
    await env.executeSql(CODE_SEQ);
    const rows = materialize(await collected(env, 'SELECT MOD(id, 50) AS k, COUNT(*) AS c, SUM(id) AS s FROM cnums GROUP BY MOD(id, 50)'));
    expect(groupsOf(rows)).toEqual(expectedGroups);
    expect(warnings).toEqual([]);
  }, 60_000);

  it('plans its projection, filters, partitions and metadata in the workers as on the main thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-code-fs-'));
    for (const p of ['a', 'b']) {
      mkdirSync(join(dir, `p=${p}`));
      writeFileSync(join(dir, `p=${p}`, 'part-0.csv'), Array.from({ length: 1000 }, (_, i) => `${i},name-${i},${i % 7}\n`).join(''));
    }
    const ddl = `CREATE TEMPORARY TABLE cfs (id BIGINT, name STRING, x INT, p STRING, fpath STRING METADATA FROM 'file.path' VIRTUAL)
      PARTITIONED BY (p) WITH ('connector' = 'code-fs', 'path' = '${dir}', 'format' = 'csv')`;
    const query = `SELECT x, c, s, tid(x) FROM (SELECT x, COUNT(*) AS c, SUM(id) AS s FROM cfs
      WHERE p = 'a' AND id >= 10 AND fpath LIKE '%part-0.csv' GROUP BY x)`;
    const run = async (settings: Record<string, string>, warnings: string[]): Promise<string[]> => {
      const env = await session(settings, warnings);
      env.registerFactory(codeFiles());
      await env.executeSql(ddl);
      return materialize(await collected(env, query));
    };
    const one = await run({ 'parallelism.default': '1' }, []);
    const warnings: string[] = [];
    const two = await run(PARALLEL, warnings);
    expect(one).toHaveLength(7);
    expect(groupsOf(two)).toEqual(groupsOf(one));
    expect(new Set(two.map((r) => JSON.parse(r)[3] as number)).size).toBe(2);
    // Only the scan is pinned: the worker planned the same graph (a different one would run the job on the main thread, saying why).
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/on the main thread: TableSourceScan\(table=\[\[default_catalog, default_database, cfs, partitions=\[\{p=a\}\], filter=\[>=\(id, 10\)\], project=\[id, x\], metadata=\[file\.path\].*\(connector 'code-fs' is registered in code without a module\)\. The rest of the job runs on worker threads\./);
  }, 60_000);

  it('keeps a lookup join into it on the main thread, with the vertex it is chained to', async () => {
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings);
    env.registerFactory(codeLookup());
    await env.executeSql(`CREATE TEMPORARY TABLE nums (id BIGINT, pt AS PROCTIME()) WITH ('connector' = 'datagen',
      'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${ROWS}', 'rows-per-second' = '100000000')`);
    await env.executeSql("CREATE TEMPORARY TABLE names (id BIGINT, name STRING) WITH ('connector' = 'code-lookup')");
    const rows = materialize(
      await collected(env, 'SELECT MOD(n.id, 10) AS k, COUNT(*) AS c FROM nums AS n JOIN names FOR SYSTEM_TIME AS OF n.pt AS m ON n.id = m.id GROUP BY MOD(n.id, 10)'),
    );
    // ids 1 to 99 have a name: 10 per key, 9 for key 0.
    expect(rows.map((r) => (JSON.parse(r) as unknown[]).map((v) => String(v).replace(/n$/, '')).join(' '))).toEqual(
      Array.from({ length: 10 }, (_, k) => `${k} ${k === 0 ? 9 : 10}`).sort(),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/on the main thread: .*LookupJoin\(table=\[default_catalog\.default_database\.names\].*\(connector 'code-lookup' is registered in code without a module\)\. The rest of the job runs on worker threads\./);
  }, 60_000);
});
