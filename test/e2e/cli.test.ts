import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** These run the built `sluice` (dist/bundle/bin.js, built by `npm test`) as a child process, as a user would. */
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'dist', 'bundle', 'bin.js');
const run = promisify(execFile);

async function sluice(args: string[], cwd = mkdtempSync(join(tmpdir(), 'sluice-cli-'))): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

function sqlFile(text: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-'));
  const file = join(dir, 'job.sql');
  writeFileSync(file, text);
  return { dir, file };
}

describe('sluice command', () => {
  it('prints its version and help', async () => {
    const v = await sluice(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^sluice \d+\.\d+\.\d+/);
    const h = await sluice(['--help']);
    expect(h.stdout).toContain('-f, --file <file>');
    const bad = await sluice(['--nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown option '--nope'");
  });

  it('says why a SQL file cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-'));
    const missing = await sluice(['-f', 'missing.sql'], dir);
    expect([missing.code, missing.stderr]).toEqual([1, "[ERROR] Could not read SQL file 'missing.sql': there is no such file.\n"]);
    const directory = await sluice(['-f', dir], dir);
    expect([directory.code, directory.stderr]).toEqual([1, `[ERROR] Could not read SQL file '${dir}': it is a directory.\n`]);
  });

  it('runs the quickstart: a bounded INSERT into print and a query as a table', async () => {
    const r = await sluice(['-f', join(root, 'sql-examples', 'quickstart.sql')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/big> \+I\[1, \w, \d+\.\d\d\]/);
    expect(r.stdout).toContain('| orders | first_id | last_id |');
    expect(r.stdout).toContain('|   1000 |        1 |    1000 |');
    expect(r.stdout).toContain('1 row in set');
    // Not a terminal: no progress line.
    expect(r.stdout).not.toContain('rows read');
  });

  it("prints TIMESTAMP_LTZ values in the session's time zone, as Flink's SQL client does", async () => {
    // A real Flink 2.3.0 prints 1970-01-01 08:00:00.000 for TO_TIMESTAMP_LTZ(0, 3) in Asia/Shanghai, and the
    // TIMESTAMP of the same instant as its UTC wall-clock time.
    const { dir, file } = sqlFile(
      "SET 'table.local-time-zone' = 'Asia/Shanghai';\nSELECT TO_TIMESTAMP_LTZ(0, 3) AS l, CAST(TIMESTAMP '1970-01-01 00:00:00' AS TIMESTAMP(3)) AS t;\n" +
        "SET 'table.local-time-zone' = 'America/New_York';\nSELECT TO_TIMESTAMP_LTZ(0, 3) AS l;\n",
    );
    const r = await sluice(['-f', file], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('| 1970-01-01 08:00:00.000 | 1970-01-01 00:00:00.000 |');
    expect(r.stdout).toContain('| 1969-12-31 19:00:00.000 |');
  });

  it('shows a progress line for a bounded INSERT on a terminal', async () => {
    const { dir, file } = sqlFile(
      "SET 'table.dml-sync' = 'true';\n" +
        "CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '15000', 'rows-per-second' = '10000');\n" +
        "CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole');\n" +
        'INSERT INTO b SELECT n FROM s;\n',
    );
    // util-linux `script` gives the child a pseudo-terminal.
    const { stdout } = await run('script', ['-qfc', `${process.execPath} ${bin} -f ${file}`, '/dev/null'], { cwd: dir, timeout: 90_000 });
    expect(stdout).toMatch(/Job [0-9a-f]{8}: [\d,]+ rows read, [\d,]+ written, [\d,]+ rows\/s, \d\d:\d\d elapsed/);
    // datagen knows its 15,000 rows: a bar, the share read and the time left.
    expect(stdout).toMatch(/elapsed, \[[#-]{20}\] \d{1,3}%, ETA \d\d:\d\d \(Ctrl-C cancels\)/);
    // The bar gives way to a closing line with the job's rows, time and rate.
    expect(stdout).toMatch(/\[INFO\] Job [0-9a-f]{8} finished: 15,000 rows read, 15,000 written in \d+\.\d s \([\d,]+ rows\/s\)\r?\n/);
    expect(stdout).toContain('[INFO] Complete execution of the SQL update statement.');
  });

  it('shows a progress bar with an ETA for a bounded read of files, by bytes', async () => {
    const { dir, file } = sqlFile(
      "SET 'table.dml-sync' = 'true';\n" +
        "CREATE TEMPORARY TABLE f (n BIGINT, s STRING) WITH ('connector' = 'filesystem', 'path' = 'data', 'format' = 'csv');\n" +
        "CREATE TEMPORARY TABLE b (n BIGINT, s STRING) WITH ('connector' = 'blackhole');\n" +
        "INSERT INTO b SELECT n, REGEXP_REPLACE(s, '([a-z]+)', '<$1>') FROM f;\n",
    );
    // About 40 MB in three files. A plain copy of them took 0.5 s on a fast machine, too short for a display
    // that redraws every 500 ms; the regular expression on every row makes the job last two seconds or more.
    mkdirSync(join(dir, 'data'));
    const lines = Array.from({ length: 300_000 }, (_, i) => `${i},row number ${i} with some padding text\n`).join('');
    for (const name of ['a.csv', 'b.csv', 'c.csv']) writeFileSync(join(dir, 'data', name), lines);
    const { stdout } = await run('script', ['-qfc', `${process.execPath} ${bin} -f ${file}`, '/dev/null'], { cwd: dir, timeout: 90_000 });
    // The files' sizes are known once listed: a bar, the share of bytes read and the time left.
    expect(stdout).toMatch(/elapsed, \[[#-]{20}\] \d{1,3}%, ETA \d\d:\d\d \(Ctrl-C cancels\)/);
    expect(stdout).toMatch(/\[INFO\] Job [0-9a-f]{8} finished: 900,000 rows read, 900,000 written in \d+\.\d s/);
  });

  it('logs a progress line every 10 s to stderr when it is not a terminal, and a closing line, leaving stdout alone', async () => {
    const { dir, file } = sqlFile(
      "CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '1200', 'rows-per-second' = '100');\n" +
        "CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole');\n" +
        'INSERT INTO b SELECT n FROM s;\n',
    );
    const r = await sluice(['-f', file], dir);
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    // About 12 s of input: one or two lines 10 s apart, then the closing line.
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines.slice(0, -1)) expect(l).toMatch(/^\[INFO\] Job [0-9a-f]{8}: [\d,]+ rows read, [\d,]+ written, [\d,]+ rows\/s, 00:[1-5]\d elapsed, \[[#-]{20}\] \d{1,3}%(, ETA \d\d:\d\d)?$/);
    expect(lines.at(-1)).toMatch(/^\[INFO\] Job [0-9a-f]{8} finished: 1,200 rows read, 1,200 written in \d+\.\d s \(\d+ rows\/s\)$/);
    expect(r.stdout).not.toContain('rows read');
  }, 60_000);

  it('stops at a parse error naming file, line and column before running any statement', async () => {
    const { dir, file } = sqlFile(
      "CREATE TABLE kept (a INT) WITH ('connector' = 'blackhole');\n\nSELECT a\nFORM kept;\n",
    );
    const r = await sluice(['-f', file, '--catalog-dir', join(dir, 'cat')], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[ERROR] Could not execute SQL statement. Reason:');
    expect(r.stdout).toContain(`--> ${file}:4:6`);
    expect(r.stdout).toContain(`Encountered "kept" at line 4, column 6`);
    expect(r.stdout).toContain('4 | FORM kept;');
    expect(r.stdout).not.toContain('[INFO] Execute statement succeeded.');
    // The CREATE TABLE on line 1 never ran: nothing was written to the catalog.
    const tables = join(dir, 'cat', 'default_database', 'tables');
    expect(existsSync(tables) ? readdirSync(tables) : []).toEqual([]);
  });

  it('names the statement of a runtime error and exits non-zero', async () => {
    const { file } = sqlFile("SET 'execution.runtime-mode' = 'batch';\nSELECT nmae FROM (VALUES (1, 'a')) AS t(id, name);\n");
    const r = await sluice(['-f', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("Column 'nmae' not found");
    expect(r.stdout).toContain("did you mean 'name'?");
    expect(r.stdout).toContain(`  --> ${file}:2:8\n2 | SELECT nmae FROM (VALUES (1, 'a')) AS t(id, name);\n           ^^^^\n`);
  });

  it('keeps permanent tables in the file catalog of --catalog-dir between runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-'));
    const catalog = join(dir, 'kept');
    const a = sqlFile("CREATE TABLE remembered (a INT) WITH ('connector' = 'blackhole');\n");
    expect((await sluice(['--catalog-dir', catalog, '-f', a.file], dir)).code).toBe(0);
    const b = sqlFile('SHOW TABLES;\n');
    const r = await sluice(['--catalog-dir', catalog, '-f', b.file], dir);
    expect(r.stdout).toContain('| remembered |');
    expect(existsSync(join(catalog, 'default_database', 'tables', 'remembered.json'))).toBe(true);
  });

  it('prints jsonl with exact BIGINT and DECIMAL values and status on stderr', async () => {
    const { file } = sqlFile(
      "SET 'execution.runtime-mode' = 'batch';\n" +
        "SELECT CAST(9007199254740993 AS BIGINT) AS big, CAST('12345678901234567890.123456789012345678' AS DECIMAL(38, 18)) AS d, 'x' AS s, CAST(NULL AS INT) AS n;\n",
    );
    const r = await sluice(['-f', file, '--output', 'jsonl']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('{"big":"9007199254740993","d":"12345678901234567890.123456789012345678","s":"x","n":null}');
    expect(r.stderr).toContain('[INFO] Execute statement succeeded.');
  });

  it('prints csv with a header line', async () => {
    const { file } = sqlFile("SET 'execution.runtime-mode' = 'batch';\nSELECT * FROM (VALUES (1, 'a,b'), (2, 'c')) AS t(id, name);\n");
    const r = await sluice(['-f', file, '--output', 'csv']);
    expect(r.stdout).toBe('id,name\n1,"a,b"\n2,c\n');
  });

  it('lists connectors and prints the options of one', async () => {
    const list = await sluice(['connectors']);
    expect(list.stdout).toMatch(/kafka\s+\[source, sink\]/);
    expect(list.stdout).toMatch(/json\s+\[decode, encode\]/);
    const dg = await sluice(['connectors', 'datagen']);
    expect(dg.stdout).toContain('number-of-rows');
    expect((await sluice(['connectors', 'nosuch'])).code).toBe(1);
  });
});

describe('sluice -i with statements piped in', () => {
  it('runs the init file, then every piped statement before shutting down', async () => {
    const { dir, file } = sqlFile("CREATE TEMPORARY TABLE t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');\nSET 'execution.runtime-mode' = 'batch';\n");
    const child = execFile(process.execPath, [bin, '-i', file, '--catalog-dir', join(dir, 'cat')], { cwd: dir, timeout: 60_000, env: { ...process.env, SLUICE_HISTORY_FILE: join(dir, 'h') } });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stdin!.end('SELECT COUNT(*) AS c FROM t;\nSELECT 2 AS x;\n');
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).toBe(0);
    expect(out).toMatch(/\| c \|\n\+---\+\n\| 3 \|/);
    expect(out).toMatch(/\| x \|\n\+---\+\n\| 2 \|/);
    expect(out.indexOf('Shutting down the session')).toBeGreaterThan(out.indexOf('| 2 |'));
  });
});

describe("import from 'sluice'", () => {
  it('resolves the built package through its exports map', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', "import { TableEnvironment } from 'sluice'; const env = TableEnvironment.create({ mode: 'batch' }); for await (const r of (await env.executeSql('SELECT 40 + 2 AS x')).collect()) console.log(JSON.stringify(r.fields)); await env.close();"],
      { cwd: root, timeout: 60_000 },
    );
    expect(stdout.trim()).toBe('[42]');
  });
});

describe('an unbounded job started by sluice -f', () => {
  it('runs until SIGTERM, which cancels it cleanly', async () => {
    const { dir, file } = sqlFile(
      "CREATE TEMPORARY TABLE endless (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');\n" +
        "CREATE TEMPORARY TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');\n" +
        'INSERT INTO sink SELECT n FROM endless;\n',
    );
    const child = execFile(process.execPath, [bin, '-f', file], { cwd: dir, timeout: 60_000 });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    while (!/Job ID: [0-9a-f]{32}/.test(out)) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    expect(await exited).toBe(130);
    expect(err).toContain('[INFO] Cancelling the running jobs...');
  });
});
