// Which scans the planner tells that their values die with their batch (ScanContext.transientValues), so a CSV file
// source may slice its strings out of its read buffers instead of copying them: only a chain of calcs calling
// built-in functions and unions into sinks that keep no row values (blackhole, print, an unpartitioned file sink in a
// line format). A stateful operator, a user function, the rows of a SELECT or a sink that does not say so all keep
// the copies.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { FileSystemTableSource } from '../../../src/connectors/filesystem/filesystem-table-source.js';
import type { ScanContext } from '../../../src/factories/dynamic-table-source.js';
import { parseStatement } from '../../../src/sql/parse.js';

const env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false, config: { 'parallelism.default': '1' } });
const ready = (async () => {
  for (const ddl of [
    "CREATE TABLE src (a BIGINT, s STRING) WITH ('connector' = 'filesystem', 'path' = '/nonexistent/a', 'format' = 'csv')",
    "CREATE TABLE src2 (a BIGINT, s STRING) WITH ('connector' = 'filesystem', 'path' = '/nonexistent/b', 'format' = 'csv')",
    "CREATE TABLE hole (a BIGINT, s STRING) WITH ('connector' = 'blackhole')",
    "CREATE TABLE shown (a BIGINT, s STRING) WITH ('connector' = 'print')",
    "CREATE TABLE files (a BIGINT, s STRING) WITH ('connector' = 'filesystem', 'path' = '/nonexistent/out', 'format' = 'csv')",
    "CREATE TABLE parted (a BIGINT, s STRING) PARTITIONED BY (s) WITH ('connector' = 'filesystem', 'path' = '/nonexistent/p', 'format' = 'csv')",
    "CREATE TABLE arrows (a BIGINT, s STRING) WITH ('connector' = 'filesystem', 'path' = '/nonexistent/arrow', 'format' = 'arrow')",
    "CREATE TABLE counts (s STRING, c BIGINT) WITH ('connector' = 'blackhole')",
  ]) {
    await env.executeSql(ddl);
  }
  env.createTemporarySystemFunction('shout', (s: unknown) => `${String(s)}!`);
})();
afterAll(() => env.close());

const contexts: ScanContext[] = [];
const original = FileSystemTableSource.prototype.getScanRuntimeProvider;
afterEach(() => {
  contexts.length = 0;
  vi.restoreAllMocks();
});

/** The transientValues each scan of `sql`'s job graph was given. */
async function transient(sql: string): Promise<(boolean | undefined)[]> {
  await ready;
  vi.restoreAllMocks();
  contexts.length = 0;
  vi.spyOn(FileSystemTableSource.prototype, 'getScanRuntimeProvider').mockImplementation(function (this: FileSystemTableSource, ctx) {
    contexts.push(ctx);
    return original.call(this, ctx);
  });
  const stmt = parseStatement(sql);
  if (stmt.kind === 'query') (await env.planner.planQuery(stmt.query)).toJobGraph({ push: () => undefined, end: () => undefined });
  else if (stmt.kind === 'insert') (await env.planner.planInserts([stmt])).toJobGraph();
  else if (stmt.kind === 'statement-set') (await env.planner.planInserts(stmt.inserts)).toJobGraph();
  else throw new Error(`not a query or INSERT: ${sql}`);
  return contexts.map((c) => c.transientValues);
}

describe('scans whose values die with their batch', () => {
  it('a filter and a projection of built-in calls into a blackhole or a print sink', async () => {
    expect(await transient("INSERT INTO hole SELECT a * 2, UPPER(s) FROM src WHERE s LIKE 'x%'")).toEqual([true]);
    expect(await transient('INSERT INTO shown SELECT a, s FROM src')).toEqual([true]);
    // A file sink in a line format encodes each row as it is written.
    expect(await transient('INSERT INTO files SELECT a, s FROM src')).toEqual([true]);
  });

  it('a UNION ALL of two scans into a blackhole', async () => {
    expect(await transient('INSERT INTO hole SELECT a, s FROM src UNION ALL SELECT a, s FROM src2')).toEqual([true, true]);
  });

  it('not under a stateful operator, a user function, a SELECT or a sink that may keep values', async () => {
    expect(await transient('INSERT INTO counts SELECT s, COUNT(*) FROM src GROUP BY s')).toEqual([false]);
    expect(await transient('INSERT INTO hole SELECT a, shout(s) FROM src')).toEqual([false]);
    expect(await transient('SELECT a, s FROM src')).toEqual([false]);
    // A partitioned file sink keeps partition paths made of values; a bulk format keeps rows until the file rolls.
    expect(await transient('INSERT INTO parted SELECT a, s FROM src')).toEqual([false]);
    expect(await transient('INSERT INTO arrows SELECT a, s FROM src')).toEqual([false]);
  });

  it('not a scan shared by a stateless INSERT and a stateful one', async () => {
    const flags = await transient('EXECUTE STATEMENT SET BEGIN INSERT INTO hole SELECT a, s FROM src; INSERT INTO counts SELECT s, COUNT(*) FROM src GROUP BY s; END');
    expect(flags).toContain(false);
    // Each scan of the set reads for the GROUP BY unless it is a scan of its own that only the blackhole reads.
    expect(flags.filter((f) => f === true).length).toBeLessThanOrEqual(1);
  });
});
