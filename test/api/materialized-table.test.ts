import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

async function rows(env: TableEnvironment, sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r.fields);
  return out;
}

async function failure(env: TableEnvironment, sql: string): Promise<string> {
  try {
    await env.executeSql(sql);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`succeeded: ${sql}`);
}

/** Every line of every committed (visible) part file under `dir`. */
function committedLines(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (!e.name.startsWith('.') && !e.name.startsWith('_')) out.push(...readFileSync(join(d, e.name), 'utf8').split('\n').filter((l) => l !== ''));
    }
  };
  walk(dir);
  return out;
}

async function until(cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const nums = (end: number): string => `CREATE TABLE nums (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000',
  'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '${end}')`;

describe('CREATE MATERIALIZED TABLE in CONTINUOUS mode', () => {
  it('creates the table from the query and refreshes it with a streaming job checkpointed every FRESHNESS', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sluice-mt-'));
    const env = TableEnvironment.create();
    await env.executeSql(nums(3000));
    const created = await env.executeSql(`CREATE MATERIALIZED TABLE mt
      WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv')
      FRESHNESS = INTERVAL '1' SECOND
      AS SELECT n, n * 2 AS twice FROM nums`);
    expect(created.resultKind).toBe('SUCCESS');
    const job = created.getJobClient()!;
    expect(job.jobName).toBe('Materialized_table_`default_catalog`.`default_database`.`mt`_continuous_refresh_job');
    // The session's own settings are untouched: the job was planned with its own mode and interval.
    expect(env.getConfig().toMap()['execution.checkpointing.interval']).toBeUndefined();

    expect(await rows(env, 'DESCRIBE mt')).toEqual([
      ['n', 'BIGINT', true, '', '', ''],
      ['twice', 'BIGINT', true, '', '', ''],
    ]);
    expect(await rows(env, 'SHOW TABLES')).toEqual([['mt'], ['nums']]);
    expect(await rows(env, 'SHOW MATERIALIZED TABLES')).toEqual([['mt']]);
    expect(await env.listMaterializedTables()).toEqual(['mt']);
    expect(await env.listTables()).toEqual(['mt', 'nums']);
    expect((await env.sqlQuery('SELECT * FROM mt')).getResolvedSchema().columnNames()).toEqual(['n', 'twice']);
    expect(await failure(env, 'SHOW CREATE TABLE mt')).toBe(
      'SHOW CREATE TABLE is only supported for tables, but `default_catalog`.`default_database`.`mt` is a materialized table. Please use SHOW CREATE MATERIALIZED TABLE instead.',
    );
    expect(await failure(env, 'SHOW CREATE MATERIALIZED TABLE nums')).toMatch(/^SHOW CREATE MATERIALIZED TABLE is only supported for materialized tables, but .* is a table\./);
    expect((await rows(env, 'SHOW CREATE MATERIALIZED TABLE mt'))[0]![0]).toBe(
      "CREATE MATERIALIZED TABLE `default_catalog`.`default_database`.`mt`\nWITH (\n  'connector' = 'filesystem',\n  'format' = 'csv',\n" +
        `  'path' = '${out}'\n)\nFRESHNESS = INTERVAL '1' SECOND\nREFRESH_MODE = CONTINUOUS\n` +
        'AS SELECT `nums`.`n`, `nums`.`n` * 2 AS `twice`\nFROM `default_catalog`.`default_database`.`nums` AS `nums`\n',
    );

    // Bounded input: the refresh job ends once it has written all of it, committed on its last checkpoint.
    await job.waitForCompletion();
    const lines = committedLines(out);
    expect(lines.length).toBe(3000);
    expect(lines).toContain('3000,6000');

    // REFRESH: a one-time batch INSERT OVERWRITE of the query; its answer is the job's id and where it runs.
    const refreshed = await env.executeSql('ALTER MATERIALIZED TABLE mt REFRESH');
    const refreshJob = refreshed.getJobClient()!;
    expect(refreshJob.jobName).toBe('Materialized_table_`default_catalog`.`default_database`.`mt`_one_time_refresh_job');
    const refreshRows: unknown[][] = [];
    for await (const r of refreshed.collect()) refreshRows.push(r.fields);
    expect(refreshRows).toEqual([[refreshJob.jobId, new Map([['execution.target', 'local']])]]);
    await refreshJob.waitForCompletion();
    expect(committedLines(out).sort()).toEqual(lines.sort());
    expect(await failure(env, "ALTER MATERIALIZED TABLE mt REFRESH PARTITION (nope = 'x')")).toBe(
      'The partition spec contains unknown partition keys:\n\nnope\n\nAll known partition keys are:\n\n',
    );
    expect(await failure(env, "ALTER MATERIALIZED TABLE mt REFRESH PARTITION (n = '1')")).toBe(
      'Currently, refreshing materialized table only supports referring to char, varchar and string type partition keys. All specified partition keys in partition specs with unsupported types are:\n\nn',
    );
    await env.executeSql('DROP MATERIALIZED TABLE mt');
    expect(await rows(env, 'SHOW TABLES')).toEqual([['nums']]);
    await env.close();
  }, 60_000);

  it('SUSPEND stops the job with a savepoint, RESUME continues from it, exactly once', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sluice-mt-out-'));
    const sp = mkdtempSync(join(tmpdir(), 'sluice-mt-sp-'));
    const env = TableEnvironment.create();
    await env.executeSql(nums(6000));
    const job = (
      await env.executeSql(`CREATE MATERIALIZED TABLE mt WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv')
        FRESHNESS = INTERVAL '1' SECOND AS SELECT n FROM nums`)
    ).getJobClient()!;
    await until(() => committedLines(out).length > 0);
    expect(await failure(env, 'ALTER MATERIALIZED TABLE mt SUSPEND')).toMatch(
      /^Failed to suspend the continuous refresh job for materialized table `default_catalog`\.`default_database`\.`mt`: savepoint directory is not configured/,
    );
    await env.executeSql(`SET 'execution.checkpointing.savepoint-dir' = '${sp}'`);
    await env.executeSql('ALTER MATERIALIZED TABLE mt SUSPEND');
    expect(job.status()).toBe('FINISHED');
    const suspendedAt = committedLines(out).length;
    expect(suspendedAt).toBeLessThan(6000);
    expect(await failure(env, 'ALTER MATERIALIZED TABLE mt SUSPEND')).toBe(
      `Materialized table \`default_catalog\`.\`default_database\`.\`mt\` continuous refresh job has been suspended, jobId is ${job.jobId}.`,
    );

    const resumed = (await env.executeSql('ALTER MATERIALIZED TABLE mt RESUME')).getJobClient()!;
    expect(resumed.jobId).not.toBe(job.jobId);
    await resumed.waitForCompletion();
    const all = committedLines(out).map(Number).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 6000 }, (_, i) => i + 1));
    await env.executeSql('DROP MATERIALIZED TABLE mt');
    await env.close();
  }, 60_000);

  it('ALTER ... AS swaps the query: the old job stops with a savepoint, a new one appends a nullable column from the start', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sluice-mt-alter-'));
    const sp = mkdtempSync(join(tmpdir(), 'sluice-mt-alter-sp-'));
    const env = TableEnvironment.create();
    await env.executeSql(nums(6000));
    const job = (
      await env.executeSql(`CREATE MATERIALIZED TABLE mt WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv')
        FRESHNESS = INTERVAL '1' SECOND AS SELECT n FROM nums`)
    ).getJobClient()!;
    await until(() => committedLines(out).length > 0);
    expect(await failure(env, 'ALTER MATERIALIZED TABLE mt AS SELECT n, n * 10 AS t FROM nums')).toMatch(/savepoint directory is not configured/);
    await env.executeSql(`SET 'execution.checkpointing.savepoint-dir' = '${sp}'`);
    const next = (await env.executeSql('ALTER MATERIALIZED TABLE mt AS SELECT n, n * 10 AS t FROM nums')).getJobClient()!;
    expect(job.status()).toBe('FINISHED');
    expect(next.jobId).not.toBe(job.jobId);
    expect(await rows(env, 'DESCRIBE mt')).toEqual([
      ['n', 'BIGINT', true, '', '', ''],
      ['t', 'BIGINT', true, '', '', ''],
    ]);
    expect(String((await rows(env, 'SHOW CREATE MATERIALIZED TABLE mt'))[0]![0])).toContain('AS SELECT `nums`.`n`, `nums`.`n` * 10 AS `t`\n');
    await next.waitForCompletion();
    // The new query's job read its sources from the start: every number with its new column.
    const wide = committedLines(out).filter((l) => l.includes(','));
    expect(wide.map((l) => Number(l.split(',')[0])).sort((a, b) => a - b)).toEqual(Array.from({ length: 6000 }, (_, i) => i + 1));
    expect(wide).toContain('6000,60000');

    expect(await failure(env, 'ALTER MATERIALIZED TABLE mt AS SELECT n FROM nums')).toBe(
      'Failed to modify query because drop column is unsupported. When modifying a query, you can only append new columns at the end of original schema. The original schema has 2 columns, but the newly derived schema from the query has 1 columns.',
    );
    expect(await failure(env, 'ALTER MATERIALIZED TABLE mt AS SELECT n * 10 AS t, n FROM nums')).toBe(
      'When modifying the query of a materialized table, currently only support appending columns at the end of original schema, dropping, renaming, and reordering columns are not supported.\nColumn mismatch at position 0: Original column is [`n` BIGINT], but new column is [`t` BIGINT].',
    );
    expect(await failure(env, 'ALTER MATERIALIZED TABLE mt AS SELECT n, n * 10 AS t, 1 AS c1 FROM nums')).toMatch(/^The column c1 of materialized table .* is NOT NULL \(INT NOT NULL\): a column added by ALTER MATERIALIZED TABLE \.\.\. AS must be nullable/);
    await env.executeSql('DROP MATERIALIZED TABLE mt');
    await env.close();
  }, 60_000);

  it('CREATE OR ALTER creates a missing table, and alters an existing one: query, options, comment and freshness', async () => {
    const env = TableEnvironment.create({ config: { 'execution.checkpointing.savepoint-dir': mkdtempSync(join(tmpdir(), 'sluice-mt-coa-')) } });
    await env.executeSql("CREATE TABLE src (a INT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')");
    await env.executeSql("CREATE OR ALTER MATERIALIZED TABLE mt COMMENT 'first' WITH ('connector' = 'blackhole') AS SELECT a FROM src");
    expect(await env.listMaterializedTables()).toEqual(['mt']);
    const before = String((await rows(env, 'SHOW CREATE MATERIALIZED TABLE mt'))[0]![0]);
    // A new definition whose job cannot start (blackhole has no option 'x') is rolled back, the old job resumed.
    expect(
      await failure(env, "CREATE OR ALTER MATERIALIZED TABLE mt WITH ('connector' = 'blackhole', 'x' = 'y') AS SELECT a, CAST(a AS STRING) AS s FROM src"),
    ).toMatch(/^Failed to start the continuous refresh job using new query SELECT .* when altering materialized table `default_catalog`\.`default_database`\.`mt` select query: /s);
    expect(String((await rows(env, 'SHOW CREATE MATERIALIZED TABLE mt'))[0]![0])).toBe(before);
    expect(before).toContain("COMMENT 'first'\n");
    await env.executeSql(
      "CREATE OR ALTER MATERIALIZED TABLE mt WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '20' SECOND AS SELECT a, CAST(a AS STRING) AS s FROM src",
    );
    expect(String((await rows(env, 'SHOW CREATE MATERIALIZED TABLE mt'))[0]![0])).toBe(
      "CREATE MATERIALIZED TABLE `default_catalog`.`default_database`.`mt`\nWITH (\n  'connector' = 'blackhole'\n)\nFRESHNESS = INTERVAL '20' SECOND\nREFRESH_MODE = CONTINUOUS\n" +
        'AS SELECT `src`.`a`, CAST(`src`.`a` AS STRING) AS `s`\nFROM `default_catalog`.`default_database`.`src` AS `src`\n',
    );
    expect(await failure(env, "CREATE OR ALTER MATERIALIZED TABLE src WITH ('connector' = 'blackhole') AS SELECT 1 AS a")).toBe(
      'Table default_catalog.default_database.src is not a materialized table. Only materialized table support create or alter operation.',
    );
    await env.executeSql('DROP MATERIALIZED TABLE mt');
    await env.close();
  }, 30_000);

  it('DROP cancels a running refresh job; RESUME of a running one is refused', async () => {
    const env = TableEnvironment.create();
    await env.executeSql("CREATE TABLE src (a INT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')");
    const job = (await env.executeSql("CREATE MATERIALIZED TABLE mt WITH ('connector' = 'blackhole') AS SELECT a FROM src")).getJobClient()!;
    await until(() => job.status() === 'RUNNING');
    expect(await failure(env, 'ALTER MATERIALIZED TABLE mt RESUME')).toBe(
      `Materialized table \`default_catalog\`.\`default_database\`.\`mt\` continuous refresh job has been resumed, jobId is ${job.jobId}.`,
    );
    expect(await failure(env, 'DROP TABLE mt')).toMatch(/^DROP TABLE for a materialized table is not allowed: .* use DROP MATERIALIZED TABLE/);
    expect(await failure(env, "ALTER TABLE mt SET ('a' = 'b')")).toMatch(/^ALTER TABLE for a materialized table is not allowed/);
    // A plain INSERT is not refused, as in Flink: its refresh job is such an INSERT, run through the same path.
    expect((await env.executeSql('INSERT INTO mt SELECT 1')).getJobClient()).toBeDefined();
    await env.executeSql('DROP MATERIALIZED TABLE mt');
    expect(job.status()).toBe('CANCELED');
    expect(await rows(env, 'SHOW MATERIALIZED TABLES')).toEqual([]);
    await env.close();
  }, 30_000);

  it('derives FRESHNESS and REFRESH_MODE as Flink 2.3 does, and refuses FULL mode saying what runs', async () => {
    const env = TableEnvironment.create();
    await env.executeSql("CREATE TABLE src (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    expect(await failure(env, "CREATE MATERIALIZED TABLE mt WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' HOUR AS SELECT a FROM src")).toBe(
      "Materialized table `default_catalog`.`default_database`.`mt` cannot be created: its FRESHNESS INTERVAL '1' HOUR is not below 'materialized-table.refresh-mode.freshness-threshold' (30 min), so its refresh mode is FULL, which needs a workflow scheduler to run its periodic batch refresh jobs, and Sluice has none. Sluice runs materialized tables in CONTINUOUS mode: write REFRESH_MODE = CONTINUOUS (a streaming job, checkpointed every FRESHNESS), or a FRESHNESS below the threshold.",
    );
    expect(await failure(env, "CREATE MATERIALIZED TABLE mt WITH ('connector' = 'blackhole') REFRESH_MODE = FULL AS SELECT a FROM src")).toMatch(
      /cannot be created: REFRESH_MODE = FULL, which needs a workflow scheduler/,
    );
    expect(await rows(env, 'SHOW TABLES')).toEqual([['src']]);
    // An explicit CONTINUOUS keeps a long freshness; a raised threshold makes the same freshness CONTINUOUS.
    await env.executeSql("CREATE MATERIALIZED TABLE m1 WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' HOUR REFRESH_MODE = CONTINUOUS AS SELECT a FROM src");
    await env.executeSql("SET 'materialized-table.refresh-mode.freshness-threshold' = '2 h'");
    await env.executeSql("CREATE MATERIALIZED TABLE m2 WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' HOUR AS SELECT a FROM src");
    await env.executeSql("SET 'materialized-table.default-freshness.continuous' = '90 s'");
    await env.executeSql("CREATE MATERIALIZED TABLE m3 WITH ('connector' = 'blackhole') AS SELECT a FROM src");
    const freshness = async (t: string): Promise<string> => String((await rows(env, `SHOW CREATE MATERIALIZED TABLE ${t}`))[0]![0]).split('\n').filter((l) => /^(FRESHNESS|REFRESH_MODE)/.test(l)).join(' ');
    expect(await freshness('m1')).toBe("FRESHNESS = INTERVAL '1' HOUR REFRESH_MODE = CONTINUOUS");
    expect(await freshness('m2')).toBe("FRESHNESS = INTERVAL '1' HOUR REFRESH_MODE = CONTINUOUS");
    expect(await freshness('m3')).toBe("FRESHNESS = INTERVAL '90' SECOND REFRESH_MODE = CONTINUOUS");
    for (const t of ['m1', 'm2', 'm3']) await env.executeSql(`DROP MATERIALIZED TABLE ${t}`);
    await env.close();
  }, 30_000);

  it('names the table in the errors of DROP, ALTER and CREATE, as Flink words them', async () => {
    const env = TableEnvironment.create();
    await env.executeSql("CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    expect(await failure(env, 'SHOW CREATE MATERIALIZED TABLE nope')).toBe(
      'Could not execute SHOW CREATE MATERIALIZED TABLE. Materialized table with identifier `default_catalog`.`default_database`.`nope` does not exist.',
    );
    expect(await failure(env, 'DROP MATERIALIZED TABLE nope')).toBe('Materialized table with identifier `default_catalog`.`default_database`.`nope` does not exist.');
    await env.executeSql('DROP MATERIALIZED TABLE IF EXISTS nope');
    expect(await failure(env, 'DROP MATERIALIZED TABLE t')).toBe(
      'Table `default_catalog`.`default_database`.`t` is not a materialized table, does not support materialized table related operation.',
    );
    expect(await failure(env, 'ALTER MATERIALIZED TABLE t SUSPEND')).toMatch(/^Table `default_catalog`\.`default_database`\.`t` is not a materialized table/);
    expect(await failure(env, "CREATE MATERIALIZED TABLE t WITH ('connector' = 'blackhole') AS SELECT 1 AS x")).toMatch(
      /^Could not execute CreateTable in path `default_catalog`\.`default_database`\.`t`/,
    );
    expect(await failure(env, "CREATE MATERIALIZED TABLE m PARTITIONED BY (b) WITH ('connector' = 'blackhole') AS SELECT a FROM t")).toBe(
      "Partition column 'b' of materialized table `default_catalog`.`default_database`.`m` is not a column of its query, which has [a].",
    );
    expect(await failure(env, 'CREATE MATERIALIZED TABLE m AS SELECT a FROM t')).toMatch(/^Submit continuous refresh job for materialized table `default_catalog`\.`default_database`\.`m` occur exception: .*Unable to create a sink for writing table 'default_catalog\.default_database\.m'/);
    expect(await rows(env, 'SHOW TABLES')).toEqual([['t']]);
    await env.close();
  }, 30_000);

  it('keeps the primary key and comment, NOT NULL on the key columns', async () => {
    const env = TableEnvironment.create();
    await env.executeSql("CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    await env.executeSql(
      "CREATE MATERIALIZED TABLE mt (CONSTRAINT k PRIMARY KEY (a) NOT ENFORCED) COMMENT 'counts' WITH ('connector' = 'blackhole') AS SELECT a, COUNT(*) AS c FROM t GROUP BY a",
    );
    expect(await rows(env, 'DESCRIBE mt')).toEqual([
      ['a', 'INT', false, 'PRI(a)', '', ''],
      ['c', 'BIGINT', false, '', '', ''],
    ]);
    expect(String((await rows(env, 'SHOW CREATE MATERIALIZED TABLE mt'))[0]![0])).toMatch(
      /^CREATE MATERIALIZED TABLE `default_catalog`\.`default_database`\.`mt` \(\n {2}CONSTRAINT `k` PRIMARY KEY \(`a`\) NOT ENFORCED\n\)\nCOMMENT 'counts'\nWITH \(/,
    );
    await env.executeSql('DROP MATERIALIZED TABLE mt');
    await env.close();
  }, 30_000);
});

describe('materialized tables bound for a cluster (--endpoint)', () => {
  it('are mirrored in the shadow session as tables, no refresh job started locally', async () => {
    const checker = TableEnvironment.create({ endpoint: 'http://127.0.0.1:1' });
    const { parseStatement } = await import('../../src/sql/parse.js');
    const check = (sql: string): Promise<void> => checker.validateForCluster(parseStatement(sql));
    await check("CREATE TABLE src (a INT) WITH ('connector' = 'datagen')");
    // FULL mode is the cluster's to refuse or run (with its workflow scheduler).
    const path = mkdtempSync(join(tmpdir(), 'sluice-mt-shadow-'));
    await check(`CREATE MATERIALIZED TABLE mt WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'csv') FRESHNESS = INTERVAL '1' DAY AS SELECT a FROM src`);
    await check('SELECT a FROM mt');
    await check('ALTER MATERIALIZED TABLE mt SUSPEND');
    await check('ALTER MATERIALIZED TABLE mt AS SELECT a, a + 1 AS b FROM src');
    await check('SELECT b FROM mt');
    await check(`CREATE OR ALTER MATERIALIZED TABLE mt WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'csv') AS SELECT a, a + 1 AS b, a + 2 AS c FROM src`);
    await check('SELECT c FROM mt');
    expect(readdirSync(path)).toEqual([]);
    await check('DROP MATERIALIZED TABLE mt');
    await expect(check('SELECT a FROM mt')).rejects.toThrow(/'mt' not found/);
    expect(readdirSync(path)).toEqual([]);
    await checker.close();
  });
});
