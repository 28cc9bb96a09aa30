import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * A materialized table's life through the built `sluice -f` (dist/bundle/bin.js, built by `npm run build`), as a user
 * runs scripts: created over a bounded datagen source into a filesystem sink, refreshed by its streaming job, suspended
 * with a savepoint, resumed from it (the file's end waits for the resumed job, as for an INSERT), and dropped by a
 * second run that finds it in the file catalog; an unbounded one is dropped while its job runs. The interactive
 * client's answers are compared with Flink's own in flink-sql-client.test.ts (materialized_table.q).
 */
const bin = join(import.meta.dirname, '..', '..', 'dist', 'bundle', 'bin.js');
const run = promisify(execFile);

async function sluiceFile(dir: string, name: string, sql: string): Promise<{ code: number; stdout: string; stderr: string }> {
  writeFileSync(join(dir, name), sql);
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, '-f', name], { cwd: dir, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

function committedLines(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith('.') && !f.startsWith('_'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((l) => l !== '');
}

const OK = '[INFO] Execute statement succeeded.\n';
const CATALOG = "CREATE CATALOG fc WITH ('type' = 'file', 'path' = 'cat');\nUSE CATALOG fc;\n";

describe('sluice -f with materialized tables', () => {
  it('refreshes, suspends, resumes (exactly once) and drops a materialized table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-mt-'));
    const first = await sluiceFile(
      dir,
      'one.sql',
      `${CATALOG}SET 'execution.checkpointing.savepoint-dir' = 'sp';
CREATE TABLE nums (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '500',
  'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '2000');
CREATE TABLE slow (x INT) WITH ('connector' = 'datagen', 'number-of-rows' = '15', 'rows-per-second' = '10');
CREATE MATERIALIZED TABLE mt
WITH ('connector' = 'filesystem', 'path' = 'out', 'format' = 'csv')
FRESHNESS = INTERVAL '1' SECOND
AS SELECT n FROM nums;
SHOW MATERIALIZED TABLES;
SET 'execution.runtime-mode' = 'batch';
-- 1.5 s of reading 'slow': the refresh job has committed rows on a checkpoint meanwhile.
SELECT COUNT(*) AS waited FROM slow;
ALTER MATERIALIZED TABLE mt SUSPEND;
SELECT COUNT(*) > 0 AS has_rows FROM mt;
ALTER MATERIALIZED TABLE mt RESUME;
`,
    );
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      `${OK.repeat(6)}+--------------------+
| materialized table |
+--------------------+
|                 mt |
+--------------------+
1 row in set
${OK}+--------+
| waited |
+--------+
|     15 |
+--------+
1 row in set
${OK}+----------+
| has_rows |
+----------+
|     TRUE |
+----------+
1 row in set
${OK}`,
    );
    // The suspended job's savepoint is reported when the file ends, as for a job stopped from outside.
    expect(first.stderr).toMatch(/^\[INFO\] Job [0-9a-f]{32} stopped with a savepoint at sp\/savepoint-/);
    // The resumed job started from the savepoint and the file's end waited for it: every number once.
    const all = committedLines(join(dir, 'out')).map(Number).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));

    const second = await sluiceFile(
      dir,
      'two.sql',
      `${CATALOG}SHOW MATERIALIZED TABLES;
CREATE TABLE endless (a INT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');
CREATE MATERIALIZED TABLE live WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' SECOND AS SELECT a FROM endless;
DROP MATERIALIZED TABLE live;
DROP MATERIALIZED TABLE mt;
SHOW TABLES;
`,
    );
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(
      `${OK.repeat(2)}+--------------------+
| materialized table |
+--------------------+
|                 mt |
+--------------------+
1 row in set
${OK.repeat(4)}+------------+
| table name |
+------------+
|    endless |
|       nums |
|       slow |
+------------+
3 rows in set
`,
    );
  }, 90_000);

  it("runs docs/limits.md's example: SUSPEND, RESUME and DROP right after one another", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-mt-docs-'));
    const r = await sluiceFile(
      dir,
      'docs.sql',
      `SET 'execution.checkpointing.savepoint-dir' = 'savepoints';
CREATE TABLE orders (id BIGINT, cust INT, amount INT, ts TIMESTAMP(3)) WITH ('connector' = 'datagen', 'rows-per-second' = '100');
CREATE MATERIALIZED TABLE big_orders
  PARTITIONED BY (ds)
  WITH ('connector' = 'filesystem', 'path' = 'out', 'format' = 'csv')
  FRESHNESS = INTERVAL '10' SECOND
  AS SELECT id, cust, amount, DATE_FORMAT(ts, 'yyyy-MM-dd') AS ds FROM orders WHERE amount > 100;
ALTER MATERIALIZED TABLE big_orders SUSPEND;
-- the resumed job is still restoring from the savepoint when DROP cancels it
ALTER MATERIALIZED TABLE big_orders RESUME;
DROP MATERIALIZED TABLE big_orders;
`,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(OK.repeat(6));
  }, 30_000);

  it('stops at a FULL mode table with a message saying what Sluice runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-mt-full-'));
    const r = await sluiceFile(
      dir,
      'full.sql',
      `CREATE TABLE src (a INT) WITH ('connector' = 'datagen');
CREATE MATERIALIZED TABLE mt FRESHNESS = INTERVAL '1' DAY AS SELECT a FROM src;
`,
    );
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      "[ERROR] Could not execute SQL statement. Reason:\nValidationError: Materialized table `default_catalog`.`default_database`.`mt` cannot be created: its FRESHNESS INTERVAL '1' DAY is not below",
    );
    expect(r.stdout + r.stderr).not.toMatch(/at .*\.js:\d+/);
  }, 30_000);
});
