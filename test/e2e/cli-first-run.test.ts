import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** What a new user meets on a first run of the built `sluice` (dist/bundle/bin.js), run as a child process. */
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'dist', 'bundle', 'bin.js');
const run = promisify(execFile);

async function sluice(args: string[], cwd: string, as?: { uid: number; gid: number }): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd, timeout: 60_000, ...as });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** A fresh working directory holding `job.sql`. */
function workdir(sql: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-first-'));
  const file = join(dir, 'job.sql');
  writeFileSync(file, sql);
  return { dir, file };
}

describe('the default catalog, as Flink’s, lives in memory', () => {
  it('runs a script of plain CREATE TABLE statements twice and writes nothing into the working directory', async () => {
    const { dir, file } = workdir(
      "SET 'execution.runtime-mode' = 'batch';\n" +
        "CREATE TABLE nums (n BIGINT) WITH ('connector' = 'datagen', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '4');\n" +
        'CREATE VIEW doubled AS SELECT n * 2 AS d FROM nums;\n' +
        'SELECT SUM(d) AS total FROM doubled;\n',
    );
    for (let i = 0; i < 2; i++) {
      const r = await sluice(['-f', file], dir);
      expect(r.stdout + r.stderr).not.toContain('[ERROR]');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\|\s+20 \|/);
    }
    expect(readdirSync(dir)).toEqual(['job.sql']);
  });

  it('names the catalog and database of a taken name and suggests IF NOT EXISTS or TEMPORARY', async () => {
    const { dir, file } = workdir(
      "CREATE TABLE t (a INT) WITH ('connector' = 'blackhole');\nCREATE TABLE t (a INT) WITH ('connector' = 'blackhole');\n",
    );
    const r = await sluice(['-f', file], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("already exists in database 'default_database' of catalog 'default_catalog'");
    expect(r.stdout).toContain('CREATE TABLE IF NOT EXISTS');
    expect(r.stdout).toContain('CREATE TEMPORARY TABLE');
    expect(r.stdout).toContain(`in the statement at ${file}:2:1`);
  });

  it('says where a file catalog keeps a table from an earlier run', async () => {
    const { dir, file } = workdir("CREATE TABLE t (a INT) WITH ('connector' = 'blackhole');\n");
    const catalog = join(dir, 'cat');
    expect((await sluice(['--catalog-dir', catalog, '-f', file], dir)).code).toBe(0);
    const again = await sluice(['--catalog-dir', catalog, '-f', file], dir);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`a file catalog kept in '${catalog}' between runs`);
  });

  it('persists into a file catalog created with CREATE CATALOG in an init file', async () => {
    const { dir, file } = workdir(
      "CREATE CATALOG mine WITH ('type' = 'file', 'path' = 'store');\nUSE CATALOG mine;\nCREATE TABLE IF NOT EXISTS kept (a INT) WITH ('connector' = 'blackhole');\n",
    );
    expect((await sluice(['-f', file], dir)).code).toBe(0);
    const show = join(dir, 'show.sql');
    writeFileSync(show, "CREATE CATALOG mine WITH ('type' = 'file', 'path' = 'store');\nUSE CATALOG mine;\nSHOW TABLES;\n");
    const r = await sluice(['-f', show], dir);
    expect(r.stdout).toMatch(/\|\s+kept \|/);
    expect(readdirSync(join(dir, 'store', 'default_database', 'tables'))).toEqual(['kept.json']);
  });
});

describe('a statement set writing one sink twice', () => {
  it('runs EXECUTE STATEMENT SET with two INSERTs into the same print sink', async () => {
    const { dir, file } = workdir(
      "CREATE TEMPORARY TABLE src (n BIGINT) WITH ('connector' = 'datagen', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '3');\n" +
        "CREATE TEMPORARY TABLE snk (n BIGINT) WITH ('connector' = 'print');\n" +
        'EXECUTE STATEMENT SET BEGIN\nINSERT INTO snk SELECT n FROM src;\nINSERT INTO snk SELECT n * 10 FROM src;\nEND;\n',
    );
    const r = await sluice(['-f', file], dir);
    expect(r.stdout + r.stderr).not.toContain('[ERROR]');
    expect(r.code).toBe(0);
    const printed = r.stdout.split('\n').filter((l) => l.startsWith('+I[')).map((l) => Number(l.slice(3, -1)));
    expect(printed.sort((a, b) => a - b)).toEqual([1, 2, 3, 10, 20, 30]);
  });
});

describe('UDF modules', () => {
  it('loads a resultType given as a type string, and names module and export of a wrong one', async () => {
    const { dir, file } = workdir(
      "SET 'execution.runtime-mode' = 'batch';\n" +
        "CREATE TEMPORARY FUNCTION plus1 AS './udf.mjs#plus1';\n" +
        'SELECT plus1(CAST(41 AS BIGINT)) AS v;\n' +
        "CREATE TEMPORARY FUNCTION broken AS './udf.mjs#broken';\n",
    );
    writeFileSync(
      join(dir, 'udf.mjs'),
      'export const plus1 = { eval: (x) => x + 1n, resultType: "BIGINT" };\nexport const broken = { eval: (x) => x, resultType: "ROW<a INT, b>" };\n',
    );
    const r = await sluice(['-f', file], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\|\s+42 \|/);
    expect(r.stdout).toContain("ValidationError: Function 'broken' (export 'broken' of module './udf.mjs'): resultType 'ROW<a INT, b>' is not a Flink type");
    expect(r.stdout).not.toContain('TypeError');
  });
});

describe('an unknown table', () => {
  it('gets a did-you-mean, the line and column of the name in the file, and the line with the name underlined', async () => {
    const { dir, file } = workdir(
      "SET 'execution.runtime-mode' = 'batch';\n" +
        "CREATE TEMPORARY TABLE orders (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1');\n" +
        'SELECT id\n  FROM ordrs;\n',
    );
    const r = await sluice(['-f', file], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("From line 4, column 8 to line 4, column 12: Object 'ordrs' not found; did you mean 'orders'?\n");
    expect(r.stdout).toContain(`  --> ${file}:4:8\n4 |   FROM ordrs;\n           ^^^^^\n`);
  });
});

describe('filesystem paths, as Flink', () => {
  it('fails a bounded job whose source path does not exist, naming the path', async () => {
    const { dir, file } = workdir(
      "SET 'execution.runtime-mode' = 'batch';\n" +
        "CREATE TEMPORARY TABLE src (n INT) WITH ('connector' = 'filesystem', 'path' = 'no-such-dir', 'format' = 'csv');\n" +
        'SELECT * FROM src;\n',
    );
    const r = await sluice(['-f', file], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`ConnectorError: Filesystem source: the path '${join(dir, 'no-such-dir')}' does not exist.`);
  });

  it('reads the one file a path names', async () => {
    const { dir, file } = workdir(
      "SET 'execution.runtime-mode' = 'batch';\n" +
        "CREATE TEMPORARY TABLE src (n INT) WITH ('connector' = 'filesystem', 'path' = 'data/nums.csv', 'format' = 'csv');\n" +
        'SELECT SUM(n) AS total FROM src;\n',
    );
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'nums.csv'), '1\n2\n39\n');
    writeFileSync(join(dir, 'data', 'other.csv'), '1000\n');
    const r = await sluice(['-f', file], dir);
    expect(r.stdout + r.stderr).not.toContain('[ERROR]');
    expect(r.stdout).toMatch(/\|\s+42 \|/);
  });

  it('reports a read-only output directory as such, naming it', async () => {
    const { dir, file } = workdir(
      "SET 'execution.runtime-mode' = 'batch';\n" +
        "CREATE TEMPORARY TABLE snk (n INT) WITH ('connector' = 'filesystem', 'path' = 'locked/out', 'format' = 'csv');\n" +
        'INSERT INTO snk VALUES (1);\n',
    );
    mkdirSync(join(dir, 'locked'));
    chmodSync(join(dir, 'locked'), 0o555);
    // Root writes anywhere: run as an unprivileged user then, so the permission bits apply.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chmodSync(dir, 0o777);
    const r = await sluice(['-f', file], dir, asRoot ? { uid: 65534, gid: 65534 } : undefined);
    expect(r.code).toBe(1);
    // A job failure after submission is reported on stderr.
    expect(r.stderr).toContain(
      `ConnectorError: Filesystem sink: cannot create the output directory '${join(dir, 'locked', 'out')}': '${join(dir, 'locked')}' is read-only for this user (permission denied)`,
    );
    expect(r.stderr).not.toContain('EACCES: permission denied');
  });
});
