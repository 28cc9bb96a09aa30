// `sluice --endpoint` and TableEnvironment.create({ endpoint }) against this run's Flink cluster (test/setup/servers.ts
// starts it with scripts/flink.sh, and the Kafka broker for the Kafka example). One file, so its tests run one after
// the other on the cluster's two slots.
//
// 1. The sql-examples whose connectors a Flink cluster has, run with and without --endpoint: both print the same.
//    Each run gets its own copy of sql-examples (the examples write to sql-examples/out), its paths made absolute,
//    since the cluster's working directory is not the CLI's.
// 2. Errors from the cluster keep Flink's text and gain the file position, Ctrl-C cancels the cluster's job, and
//    what a cluster cannot run is refused before anything is submitted.
// 3. The REPL's full-screen table and changelog views show a cluster's result as they show a local one.
// 4. Java UDFs: a jar compiled by the test (javac), ADD JAR and CREATE FUNCTION, called through --endpoint.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { rowKindShortString } from '../../../src/types/row-kind.js';
import { Terminal } from '../../e2e/pty-terminal.js';
import { clusterJobs, GATEWAY_URL, gatewayAvailable, runCli, TASKMANAGER_LOG } from './gateway-env.js';
import { buildShoutJar, SHOUT_CLASS } from './java-udf-jar.js';

const EXAMPLES = fileURLToPath(new URL('../../../sql-examples', import.meta.url));
let root: string;
let dir: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sluice-gateway-'));
  dir = root;
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function sqlFile(name: string, sql: string): string {
  const path = join(root, name);
  writeFileSync(path, sql);
  return path;
}

/**
 * sql-examples/<file> with its own copy of the examples folder, `'sql-examples/...` paths pointing there; Kafka
 * examples get this run's broker and topics of their own (`-<run>` appended), so the two runs do not share data.
 */
function prepare(file: string, run: string): string {
  const home = join(root, run);
  cpSync(EXAMPLES, join(home, 'sql-examples'), { recursive: true, filter: (src) => !src.startsWith(join(EXAMPLES, 'out')) });
  const sql = readFileSync(join(EXAMPLES, file), 'utf8')
    .replaceAll("'sql-examples/", `'${home}/sql-examples/`)
    .replaceAll("'127.0.0.1:9092'", `'${process.env.KAFKA_BOOTSTRAP ?? ''}'`)
    .replace(/'(sluice-example-[a-z-]+)'/g, `'$1-${run}'`);
  const path = join(home, file);
  writeFileSync(path, sql);
  return path;
}

async function both(file: string): Promise<{ local: string; remote: string }> {
  // At the same time: the two runs share no files or topics, and the local one needs no cluster slot. One after
  // the other they took a minute of the suite's time.
  const [local, remote] = await Promise.all([runCli(['-f', prepare(file, 'local')]), runCli(['-e', GATEWAY_URL, '-f', prepare(file, 'remote')])]);
  expect(local.code, local.stderr).toBe(0);
  expect(remote.code, `${remote.stdout}\n${remote.stderr}`).toBe(0);
  expect(remote.stdout).not.toContain('[ERROR]');
  return { local: local.stdout, remote: remote.stdout };
}

describe.skipIf(!gatewayAvailable())('sql-examples through --endpoint print what a local run prints', () => {
  it('filesystem-etl.sql: INSERT OVERWRITE into partitioned JSON files on the cluster, then the same aggregate', async () => {
    const { local, remote } = await both('filesystem-etl.sql');
    expect(remote).toBe(local);
    expect(remote).toContain('rows in set');
   }, 240_000);

  it('cdc-debezium.sql: a Debezium changelog read by the cluster prints the same +I/-U/+U/-D rows', async () => {
    const { local, remote } = await both('cdc-debezium.sql');
    expect(remote).toBe(local);
    expect(remote).toMatch(/\| -D \|/);
   }, 240_000);

  it('windowed-aggregation.sql: TUMBLE and HOP windows over event time give the same rows (in another order within a window)', async () => {
    const { local, remote } = await both('windowed-aggregation.sql');
    // Rows of one window come out in hash order, which differs between Flink and Sluice: compare the lines as a multiset.
    expect(remote.split('\n').sort()).toEqual(local.split('\n').sort());
    expect(remote.match(/^\| \+I \| 2024-01-01 10:/gm)?.length).toBeGreaterThan(5);
  }, 240_000);

  it('quickstart.sql: a datagen sequence; the print sink writes on the TaskManager, the query result is the same', async () => {
    const { local, remote } = await both('quickstart.sql');
    // Locally the print sink writes to sluice's stdout; on a cluster to the TaskManager's (its log here).
    const printed = local.split('\n').filter((l) => l.startsWith('big> '));
    expect(printed).toHaveLength(5);
    expect(remote).toBe(local.split('\n').filter((l) => !l.startsWith('big> ')).join('\n'));
    expect(remote).toContain('|   1000 |        1 |    1000 |');
    const tm = readFileSync(TASKMANAGER_LOG, 'utf8');
    for (let id = 1; id <= 5; id++) expect(tm).toContain(`big> +I[${id}, `);
   }, 240_000);

  it('match-recognize.sql: MATCH_RECOGNIZE over a CSV file with a watermark finds the same falling periods', async () => {
    const { local, remote } = await both('match-recognize.sql');
    // Matches of different symbols come out in the order their partitions fire, which may differ: compare as a multiset.
    expect(remote.split('\n').sort()).toEqual(local.split('\n').sort());
    expect(remote).toMatch(/^\| \+I \| +ACME \| 2011-04-01 10:00:04\.000 \| 2011-04-01 10:00:07\.000 \| 2011-04-01 10:00:08\.000 \| +3 \|$/m);
  }, 240_000);

  it.skipIf(!process.env.KAFKA_BOOTSTRAP)('kafka-to-kafka-exactly-once.sql: Kafka to Kafka with transactions on the cluster, the same counts', async () => {
    // The example sets 'properties.transaction.timeout.ms' itself: Flink's 1 h default is more than the broker allows.
    expect(readFileSync(join(EXAMPLES, 'kafka-to-kafka-exactly-once.sql'), 'utf8')).toContain("'properties.transaction.timeout.ms' = '900000'");
    const { local, remote } = await both('kafka-to-kafka-exactly-once.sql');
    // Every order copied once; the amounts are random, so the total differs between the two runs.
    const counts = /\|\s+1000 \|\s+1000 \|\s+[\d.]+ \|/;
    expect(remote).toMatch(counts);
    expect(remote.replace(counts, '')).toBe(local.replace(counts, ''));
  }, 240_000);

  it.skipIf(!process.env.KAFKA_BOOTSTRAP)('upsert-kafka-materialized-view.sql: the view read back from the upsert topic ends with the same purchase counts', async () => {
    const { local, remote } = await both('upsert-kafka-materialized-view.sql');
    // How many updates a key's changelog shows depends on the sink's flush timing, and the amounts are random:
    // what must agree is the view the changelog leaves, 100 purchases for each of the five customers.
    const local_ = materialized(local);
    expect(local_).toEqual(new Map(['c0', 'c1', 'c2', 'c3', 'c4'].map((c) => [c, 100])));
    expect(materialized(remote)).toEqual(local_);
    expect(remote).toMatch(/^\| op \| +customer \|/m);
  }, 240_000);
});

/** The customer -> purchases map a tableau changelog of `| op | customer | purchases | revenue |` rows leaves. */
function materialized(tableau: string): Map<string, number> {
  const view = new Map<string, number>();
  for (const m of tableau.matchAll(/^\| ([+-][IUD]) \| +(\S+) \| +(\d+) \| +\d+ \|$/gm)) {
    const [, op, customer, purchases] = m as unknown as [string, string, string, string];
    if (op === '+I' || op === '+U') view.set(customer, Number(purchases));
    else view.delete(customer);
  }
  return view;
}

const NUMBERS = `CREATE TEMPORARY TABLE nums (n BIGINT, s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '4',
  'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '4', 'fields.s.length' = '2');\n`;

describe.skipIf(!gatewayAvailable())('sluice --endpoint', () => {
  it('--output jsonl prints the same lines as a local run, status on stderr', async () => {
    const file = sqlFile('jsonl.sql', `SET 'execution.runtime-mode' = 'batch';\n${NUMBERS}SELECT n, n * 10 AS tens, CAST(n AS DECIMAL(4, 1)) / 4 AS q FROM nums;\n`);
    const local = await runCli(['--output', 'jsonl', '-f', file]);
    const remote = await runCli(['-e', GATEWAY_URL, '--output', 'jsonl', '-f', file]);
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stdout).toBe(local.stdout);
    expect(remote.stdout.trim().split('\n')).toHaveLength(4);
    expect(remote.stderr).toContain('[INFO] Execute statement succeeded.');
  });

  it("an error raised on the cluster keeps Flink's exception and text, gains file:line:col, and exits 1", async () => {
    const file = sqlFile(
      'missing.sql',
      `SET 'execution.runtime-mode' = 'batch';\nCREATE TEMPORARY TABLE missing (a STRING) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'no-such-dir')}', 'format' = 'csv');\n\nSELECT a FROM missing;\nSELECT 1;\n`,
    );
    const r = await runCli(['-e', GATEWAY_URL, '-f', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[ERROR] Could not execute SQL statement. Reason:\njava.io.FileNotFoundException: File ');
    expect(r.stdout).toContain(`  --> in the statement at ${file}:4:1`);
    expect(r.stdout).not.toContain('EXPR$0');
  });

  it('Ctrl-C while a streaming query prints cancels its job on the cluster and exits 130', async () => {
    const file = sqlFile(
      'endless.sql',
      `CREATE TEMPORARY TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '100000');\nSELECT n FROM gen;\nSELECT 'not reached' AS x;\n`,
    );
    const before = new Set((await clusterJobs()).map((j) => j.id));
    const r = await runCli(['-e', GATEWAY_URL, '-f', file], { interruptWhen: /\| \+I \|\s+2 \|/ });
    expect(r.code).toBe(130);
    expect(r.stdout).toMatch(/\| \+I \|\s+1 \|/);
    expect(r.stdout).not.toContain('not reached');
    const mine = (await clusterJobs()).filter((j) => !before.has(j.id));
    expect(mine).toHaveLength(1);
    // Cancelling is asynchronous on the cluster: give it a moment.
    for (let i = 0; i < 40 && (await clusterJobs()).find((j) => j.id === mine[0]!.id)?.status !== 'CANCELED'; i++) await new Promise((res) => setTimeout(res, 250));
    expect((await clusterJobs()).find((j) => j.id === mine[0]!.id)?.status).toBe('CANCELED');
  });

  it('refuses a Sluice-only connector on line 4 before line 2 reaches the cluster, naming table and reason', async () => {
    const out = join(dir, 'refused-out');
    const file = sqlFile(
      'refused.sql',
      `SET 'table.dml-sync' = 'true';\nCREATE TEMPORARY TABLE out_t (n BIGINT) WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv');\nINSERT INTO out_t VALUES (1), (2);\nCREATE TEMPORARY TABLE bids (auction BIGINT) WITH ('connector' = 'nexmark');\n`,
    );
    const before = (await clusterJobs()).length;
    const r = await runCli(['-e', GATEWAY_URL, '-f', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `[ERROR] Could not execute SQL statement. Reason:\nClusterRefusalError: Table 'bids' cannot run on a Flink cluster: its connector 'nexmark' exists only in Sluice. Run this file without --endpoint, or read the data through a connector the cluster has (kafka, filesystem, ...).\n  --> in the statement at ${file}:4:1\n`,
    );
    expect((await clusterJobs()).length).toBe(before);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it("a validation error on the last line stops the file before anything runs, with Sluice's message and position", async () => {
    const out = join(dir, 'typo-out');
    const file = sqlFile(
      'typo.sql',
      `SET 'table.dml-sync' = 'true';\nCREATE TEMPORARY TABLE out_t (n BIGINT) WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv');\nINSERT INTO out_t VALUES (1);\nSELECT nn FROM out_t;\n`,
    );
    const r = await runCli(['-e', GATEWAY_URL, '-f', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('[INFO]');
    expect(r.stdout).toContain(`${file}:4:`);
    expect(r.stdout).toMatch(/nn/);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it('an INSERT job keeps running after the file; SHOW JOBS lists it, STOP JOB WITH SAVEPOINT stops it, a new job resumes from that savepoint', async () => {
    const tables = `CREATE TEMPORARY TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');\nCREATE TEMPORARY TABLE bh (n BIGINT) WITH ('connector' = 'blackhole');\n`;
    const wide = ['-e', GATEWAY_URL, '-D', 'table.display.max-column-width=300'];
    const started = await runCli([...wide, '-f', sqlFile('start.sql', `${tables}SET 'execution.checkpointing.interval' = '1 s';\nINSERT INTO bh SELECT n FROM gen;\n`)]);
    expect(started.code, started.stderr).toBe(0);
    const jobId = /Job ID: ([0-9a-f]{32})/.exec(started.stdout)![1]!;
    expect((await clusterJobs()).find((j) => j.id === jobId)?.status).toMatch(/CREATED|INITIALIZING|RUNNING/);
    const stop = sqlFile('stop.sql', `SHOW JOBS;\nSTOP JOB '${jobId}' WITH SAVEPOINT;\n`);
    let stopped = await runCli([...wide, '-f', stop]);
    expect(stopped.stdout).toMatch(new RegExp(`\\| +${jobId} \\| +insert-into_default_catalog\\.default_database\\.bh \\| +(CREATED|INITIALIZING|RUNNING) \\|`));
    // A savepoint needs every task running; right after submission they may still be deploying.
    for (let i = 0; i < 10 && stopped.code !== 0; i++) {
      await new Promise((res) => setTimeout(res, 2000));
      stopped = await runCli([...wide, '-f', sqlFile('stop-again.sql', `STOP JOB '${jobId}' WITH SAVEPOINT;\n`)]);
    }
    expect(stopped.code, stopped.stdout).toBe(0);
    const savepoint = /\| +(file:\S+savepoint-\S+) \|/.exec(stopped.stdout)![1]!;
    const resumed = await runCli([...wide, '-f', sqlFile('resume.sql', `${tables}SET 'execution.state-recovery.path' = '${savepoint}';\nINSERT INTO bh SELECT n FROM gen;\n`)]);
    expect(resumed.code, resumed.stdout).toBe(0);
    const resumedId = /Job ID: ([0-9a-f]{32})/.exec(resumed.stdout)![1]!;
    let restored: string | undefined;
    for (let i = 0; i < 40 && restored === undefined; i++) {
      const c = (await (await fetch(`${process.env.FLINK_REST_URL}/jobs/${resumedId}/checkpoints`)).json()) as { latest?: { restored?: { external_path?: string } } };
      restored = c.latest?.restored?.external_path;
      if (restored === undefined) await new Promise((res) => setTimeout(res, 500));
    }
    expect(restored).toBe(savepoint);
    const cancelled = await runCli([...wide, '-f', sqlFile('cancel.sql', `STOP JOB '${resumedId}';\n`)]);
    expect(cancelled.stdout).toBe('[INFO] Execute statement succeeded.\n');
  }, 240_000);

  it('refuses --resume with a Sluice checkpoint, pointing to a Flink savepoint instead', async () => {
    const r = await runCli(['-e', GATEWAY_URL, '--resume', dir, '-f', sqlFile('x.sql', 'SELECT 1;\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--resume cannot be combined with --endpoint: a Flink cluster cannot read Sluice's checkpoints. Resume a cluster job from a Flink savepoint with SET 'execution.state-recovery.path'");
  });

  it('DESCRIBE and a MOD column print as a local run: Flink types BIGINT % INT as INT, and statement nulls as empty cells', async () => {
    const file = sqlFile('describe.sql', `${NUMBERS}CREATE TEMPORARY VIEW v AS SELECT n % 2 AS parity, s FROM nums;\nDESCRIBE v;\n`);
    const local = await runCli(['-f', file]);
    const remote = await runCli(['-e', GATEWAY_URL, '-f', file]);
    expect(remote.stdout).toContain('| parity |    INT | TRUE |     |        |           |');
    expect(remote.stdout).toBe(local.stdout);
  }, 120_000);

  it('the REPL with -i: the init file runs on the cluster, then typed queries do; QUIT closes the session', async () => {
    const init = sqlFile('init.sql', `${NUMBERS}SET 'sql-client.execution.result-mode' = 'tableau';\n`);
    const term = new Terminal(dir, undefined, ['-e', GATEWAY_URL, '-i', init]);
    try {
      let at = await term.waitFor('Sluice SQL> ', 0, 120_000);
      expect(term.screen.slice(0, at).match(/\[INFO\] Execute statement succeeded\./g)).toHaveLength(2);
      term.type('SELECT n * 10 AS t FROM nums;\r');
      at = await term.waitFor('Received a total of 4 rows', at, 120_000);
      expect(term.screen).toMatch(/\| \+I \| +10 \|[\s\S]*\| \+I \| +40 \|/);
      term.type('SHOW TABLES;\r');
      at = await term.waitFor(/\| +nums \|/, at);
      term.type('QUIT;\r');
      await term.waitFor('Shutting down the session...', at);
    } finally {
      term.kill();
    }
  }, 240_000);

  it('TableEnvironment.create({ endpoint }): a streaming aggregate comes back with its row kinds', async () => {
    const env = TableEnvironment.create({ endpoint: GATEWAY_URL });
    try {
      await env.executeSql(NUMBERS);
      const result = await env.executeSql('SELECT MOD(n, 2) AS k, COUNT(*) AS c FROM nums GROUP BY MOD(n, 2)');
      expect(result.getResolvedSchema().columnNames()).toEqual(['k', 'c']);
      const rows: string[] = [];
      for await (const row of result.collect()) rows.push(`${rowKindShortString(row.kind)}${JSON.stringify(row.fields, (_, v) => (typeof v === 'bigint' ? Number(v) : v))}`);
      // Final counts: two rows per key; the changelog has the retractions on the way there.
      expect(rows.filter((r) => r.startsWith('+I'))).toHaveLength(2);
      expect(rows).toContain('+U[1,2]');
      expect(rows).toContain('+U[0,2]');
      expect(rows).toContain('-U[1,1]');
    } finally {
      await env.close();
    }
  });
});

/**
 * The REPL's full-screen views of a streaming GROUP BY over a bounded datagen sequence, with `args` (local or
 * --endpoint): the table view, a row opened from it, then the changelog view, each once the result is final,
 * the time of the last refresh left out. Also whether the screen was given back after each.
 */
async function replViews(args: readonly string[]): Promise<{ table: string; row: string; changelog: string; restored: boolean }> {
  const term = new Terminal(dir, { columns: 80, rows: 24 }, args);
  const shown = (): string => term.display!.text().join('\n').replace(/Updated: [\d:.]+/, 'Updated: <time>');
  const views: string[] = [];
  let restored = true;
  try {
    let at = await term.waitFor('Sluice SQL> ', 0, 60_000);
    term.type(`${NUMBERS.replaceAll('\n', ' ').replaceAll("'4'", "'6'")}\r`);
    at = await term.waitFor('[INFO] Execute statement succeeded.', at, 60_000);
    for (const mode of ['table', 'changelog']) {
      term.type(`SET 'sql-client.execution.result-mode' = '${mode}';\r`);
      at = await term.waitFor('[INFO] Execute statement succeeded.', at);
      term.type('SELECT MOD(n, 3) AS k, COUNT(*) AS c, SUM(n) AS total FROM nums GROUP BY MOD(n, 3);\r');
      await term.waitForDisplay('Table program finished.', 120_000);
      views.push(shown());
      if (mode === 'table') {
        term.type('\r');
        await term.waitForDisplay('any other key: back to the table');
        views.push(shown());
        term.type('x');
        await term.waitForDisplay('Table program finished.');
      }
      term.type('q');
      at = await term.waitFor('Sluice SQL> ', at);
      await term.waitForDisplay(/^Sluice SQL>$/);
      restored &&= term.display?.onAlternateScreen === false;
    }
    term.type('QUIT;\r');
    await term.waitFor('Shutting down the session...', at);
  } finally {
    term.kill();
  }
  const [table, row, changelog] = views as [string, string, string];
  return { table, row, changelog, restored };
}

describe.skipIf(!gatewayAvailable())('the REPL through --endpoint', () => {
  it('shows the table view and the changelog view of a streaming aggregate as the local REPL does', async () => {
    const local = await replViews([]);
    const remote = await replViews(['-e', GATEWAY_URL]);
    // Final rows only in the table view, every change with its kind in the changelog view.
    const rows = (view: string): string[] => view.split('\n').filter((l) => /^[|>] ( ?[+-][IUD] \| +)?\d/.test(l)).map((l) => l.replace(/\s+/g, ' '));
    expect(rows(remote.table).sort()).toEqual(['| 0 | 2 | 9 |', '| 1 | 2 | 5 |', '| 2 | 2 | 7 |']);
    expect(rows(remote.changelog).filter((l) => l.startsWith('| +I'))).toHaveLength(3);
    expect(rows(remote.changelog).filter((l) => /^\| [-+]U/.test(l))).toHaveLength(6);
    expect(rows(remote.changelog)).toContain('| +U | 0 | 2 | 9 |');
    expect(remote.row).toMatch(/Row 1 of 3[\s\S]*k \(INT\):\n \d\n\n c \(BIGINT NOT NULL\):\n \d\n\n total \(BIGINT\):\n \d/);
    expect(remote.restored).toBe(true);
    expect(remote).toEqual(local);
  }, 240_000);
});

describe.skipIf(!gatewayAvailable())('Java UDFs through --endpoint', () => {
  let jar: string;
  beforeAll(() => {
    jar = buildShoutJar(mkdtempSync(join(root, 'udf-')));
  });

  it('ADD JAR and CREATE FUNCTION ... LANGUAGE JAVA reach the cluster; a view and a query calling the function return its rows', async () => {
    const file = sqlFile(
      'java-udf.sql',
      `SET 'execution.runtime-mode' = 'batch';
ADD JAR '${jar}';
CREATE TEMPORARY FUNCTION shout AS '${SHOUT_CLASS}' LANGUAGE JAVA;
CREATE TEMPORARY VIEW words AS SELECT shout(w) AS loud, SHOUT(n) AS hundreds FROM (VALUES ('hi', CAST(1 AS BIGINT)), ('yo', CAST(2 AS BIGINT))) AS t(w, n);
SELECT loud, hundreds FROM words ORDER BY loud;
`,
    );
    const r = await runCli(['-e', GATEWAY_URL, '-f', file]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain(['+------+----------+', '| loud | hundreds |', '+------+----------+', '|  HI! |      100 |', '|  YO! |      200 |', '+------+----------+', '2 rows in set'].join('\n'));
  }, 120_000);

  it("USING JAR: the function's rows come back; a call the cluster refuses keeps Flink's message and gains file:line:col", async () => {
    // (Not with ADD JAR of the same jar as well: Flink 2.2 then fails the CREATE with a NullPointerException.)
    const file = sqlFile(
      'java-udf-using.sql',
      `SET 'execution.runtime-mode' = 'batch';\nCREATE TEMPORARY SYSTEM FUNCTION shout AS '${SHOUT_CLASS}' USING JAR '${jar}';\nSELECT shout('ok') AS fine;\n\nSELECT\n  shout(TRUE) AS b;\n`,
    );
    const r = await runCli(['-e', GATEWAY_URL, '-f', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('|  OK! |');
    // Flink's reason, with the function's signatures the cluster knows, at the statement's place in the file.
    expect(r.stdout).toContain(
      `[ERROR] Could not execute SQL statement. Reason:\norg.apache.flink.table.api.ValidationException: Invalid input arguments. Expected signatures are:\nshout(arg0 BIGINT)\nshout(arg0 STRING)\n  --> in the statement at ${file}:5:1\n`,
    );
  }, 120_000);

  it("a typo in a file that calls a Java function is still Sluice's, found before anything runs", async () => {
    const file = sqlFile('java-udf-typo.sql', `ADD JAR '${jar}';\nCREATE TEMPORARY FUNCTION shout AS '${SHOUT_CLASS}';\nSELECT shout('a') AS a;\nSELECT nope FROM (VALUES (1)) AS t(n);\n`);
    const r = await runCli(['-e', GATEWAY_URL, '-f', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('[INFO]');
    expect(r.stdout).toContain("Column 'nope' not found");
    expect(r.stdout).toContain(`${file}:4:`);
  });

  it('a local run refuses LANGUAGE JAVA, naming the statement and pointing to --endpoint', async () => {
    const file = sqlFile('java-udf-local.sql', `SELECT 1 AS x;\nCREATE TEMPORARY FUNCTION shout AS '${SHOUT_CLASS}' LANGUAGE JAVA;\n`);
    const r = await runCli(['-f', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`CREATE FUNCTION shout AS '${SHOUT_CLASS}' (LANGUAGE JAVA) cannot run locally`);
    expect(r.stdout).toContain('sluice --endpoint <SQL Gateway URL>');
    expect(r.stdout).toContain(`  --> in the statement at ${file}:2:1`);
  });
});
