import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * DESCRIBE CATALOG, SHOW CREATE CATALOG and ALTER CATALOG through the built `sluice -f` (dist/bundle/bin.js, built by
 * `npm run build`), as a user runs a script: Flink's tables, [INFO] lines and [ERROR] blocks. The interactive client's
 * answers are compared with Flink's own in flink-sql-client.test.ts (catalog_database.q).
 */
const bin = join(import.meta.dirname, '..', '..', 'dist', 'bundle', 'bin.js');
const run = promisify(execFile);

async function sluiceFile(sql: string): Promise<{ code: number; stdout: string; stderr: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-catalog-'));
  writeFileSync(join(dir, 'job.sql'), sql);
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, '-f', 'job.sql'], { cwd: dir, timeout: 60_000 });
    return { code: 0, stdout, stderr, dir };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '', dir };
  }
}

describe('sluice -f with catalog statements', () => {
  it('describes a file catalog and points it at another directory with ALTER CATALOG', async () => {
    const r = await sluiceFile(`CREATE CATALOG fc COMMENT 'kept in files' WITH ('type' = 'file', 'path' = 'cat-a');
CREATE TABLE fc.default_database.t (a INT) WITH ('connector' = 'datagen');
DESCRIBE CATALOG EXTENDED fc;
ALTER CATALOG fc SET ('path' = 'cat-b', 'default-database' = 'db_b');
SHOW DATABASES FROM fc;
DESC CATALOG fc;
`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`[INFO] Execute statement succeeded.
[INFO] Execute statement succeeded.
+-------------+---------------+
|   info name |    info value |
+-------------+---------------+
|        name |            fc |
|        type |          file |
|     comment | kept in files |
| option:path |         cat-a |
+-------------+---------------+
4 rows in set
[INFO] Execute statement succeeded.
+---------------+
| database name |
+---------------+
|          db_b |
+---------------+
1 row in set
+-----------+---------------+
| info name |    info value |
+-----------+---------------+
|      name |            fc |
|      type |          file |
|   comment | kept in files |
+-----------+---------------+
3 rows in set
`);
    expect(readdirSync(join(r.dir, 'cat-a'))).toEqual(['default_database']);
    expect(readdirSync(join(r.dir, 'cat-b'))).toEqual(['db_b']);
  });

  it('warns when ALTER CATALOG empties an in-memory catalog, and stops at an ALTER of the session catalog', async () => {
    const r = await sluiceFile(`CREATE CATALOG m WITH ('type' = 'generic_in_memory');
CREATE TABLE m.\`default\`.t (a INT) WITH ('connector' = 'datagen');
ALTER CATALOG m COMMENT 'new';
ALTER CATALOG default_catalog RESET ('default-database');
SHOW CATALOGS;
`);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "[WARNING] ALTER CATALOG built the in-memory catalog 'm' anew from its changed definition, as Flink does: the databases, tables, views and functions it held are gone.\n",
    );
    expect(r.stdout).toBe(`[INFO] Execute statement succeeded.
[INFO] Execute statement succeeded.
[INFO] Execute statement succeeded.
[ERROR] Could not execute SQL statement. Reason:
ValidationError: Could not execute ALTER CATALOG default_catalog
  RESET 'default-database'
  --> in the statement at job.sql:4:1
Caused by: ObjectNotFoundError: Catalog default_catalog does not exist in the catalog store. It was not created by CREATE CATALOG (it is the session's own catalog), so it has no options to show or change.
`);
  });
});
