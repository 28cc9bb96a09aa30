// Runs every example in sql-examples/ (but the quickstart and the server-backed kafka / pravega ones)
// through the built CLI, as `sluice -f sql-examples/<file>` from a copy of the repository's sql-examples
// folder (the examples use paths relative to the repository root; the copy keeps sql-examples/out/ and
// the catalog out of the working tree), and checks the key result lines.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../dist/bundle/bin.js', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../sql-examples', import.meta.url));

function cliAvailable(): boolean {
  if (existsSync(CLI)) return true;
  if (process.env.CI) throw new Error(`${CLI} is missing; CI must run 'npm run build' before the tests.`);
  console.warn(`SKIPPING example tests: ${CLI} is missing (run 'npm run build').`);
  return false;
}

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sluice-examples-'));
  cpSync(EXAMPLES, join(root, 'sql-examples'), { recursive: true, filter: (src) => !src.startsWith(join(EXAMPLES, 'out')) });
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

async function runExample(file: string): Promise<string> {
  const child = spawn(process.execPath, [CLI, '--catalog-dir', join(root, 'catalog'), '-f', `sql-examples/${file}`], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
  const code = await new Promise<number | string>((resolve) => child.once('exit', (c, s) => resolve(c ?? s ?? -1)));
  clearTimeout(timer);
  expect(code, `${file} exited with ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`).toBe(0);
  expect(stdout).not.toContain('[ERROR]');
  return stdout;
}

/** The result blocks in order, each as its rows of cells (header first). */
function tables(stdout: string): string[][][] {
  const out: string[][][] = [];
  let current: string[][] | undefined;
  for (const l of stdout.split('\n')) {
    if (l.startsWith('|')) {
      if (!current) out.push((current = []));
      current.push(l.slice(1, -1).split('|').map((c) => c.trim()));
    } else if (!l.startsWith('+')) {
      current = undefined;
    }
  }
  return out;
}

describe.skipIf(!cliAvailable())('sql-examples run through the CLI', () => {
  it('every example here is one this test runs', () => {
    const mine = readdirSync(EXAMPLES).filter((f) => f.endsWith('.sql') && f !== 'quickstart.sql' && !/^(kafka|upsert-kafka|pravega)-/.test(f));
    expect(mine.sort()).toEqual([
      'arrow-files.sql',
      'cdc-debezium.sql',
      'filesystem-etl.sql',
      'first-visits-and-rollups.sql',
      'match-recognize.sql',
      'nexmark-q1.sql',
      'windowed-aggregation.sql',
    ]);
  });

  it('first-visits-and-rollups.sql: SHOW COLUMNS LIKE, event-time first rows appended to files, ROLLUP with GROUPING_ID', async () => {
    const [columns, firsts, rollup] = tables(await runExample('first-visits-and-rollups.sql'));
    expect(columns!.map((r) => r[0])).toEqual(['name', 'click_time']);
    expect(firsts).toEqual([
      ['user_name', 'url', 'click_time'],
      ['alice', '/home', '2024-01-01 10:00:03.000'],
      ['bob', '/cart', '2024-01-01 10:00:17.000'],
      ['carol', '/home', '2024-01-01 10:01:05.000'],
      ['dave', '/home', '2024-01-01 10:02:30.000'],
    ]);
    expect(rollup).toEqual([
      ['user_name', 'url', 'g', 'clicks'],
      ['alice', '<NULL>', '1', '4'],
      ['bob', '<NULL>', '1', '3'],
      ['carol', '<NULL>', '1', '2'],
      ['dave', '<NULL>', '1', '1'],
      ['<NULL>', '<NULL>', '3', '10'],
    ]);
  });

  it('arrow-files.sql: 100,000 rows into Arrow files per site, read back exactly; apache-arrow reads the files too', async () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => i + 1);
    const expected = [0, 1, 2].map((s) => {
      const mine = ids.filter((id) => id % 3 === s);
      return [`site-${s}`, String(mine.length), String(mine.reduce((a, b) => a + b, 0)), '24.0'];
    });
    for (let run = 0; run < 2; run++) {
      expect(tables(await runExample('arrow-files.sql'))).toEqual([[['site', 'readings', 'id_sum', 'max_reading'], ...expected]]);
    }
    const dir = join(root, 'sql-examples', 'out', 'readings', 'site=site-1');
    let rows = 0;
    for (const f of readdirSync(dir).filter((n) => !n.startsWith('.'))) {
      const t = tableFromIPC(readFileSync(join(dir, f)));
      expect(t.schema.fields.map((x) => `${x.name}:${String(x.type)}`)).toEqual(['id:Int64', 'sensor:Utf8', 'reading:Float64']);
      for (const r of t) {
        expect(r.sensor).toBe(`sensor-${r.id % 10n}`);
        expect(r.reading).toBe(Number(r.id % 97n) / 4);
      }
      rows += t.numRows;
    }
    expect(rows).toBe(33_334);
  }, 60_000);

  it('filesystem-etl.sql: partitioned CSV in, partitioned JSON out, read back; a second run gives the same', async () => {
    for (let run = 0; run < 2; run++) {
      const out = await runExample('filesystem-etl.sql');
      expect(tables(out)).toEqual([
        [
          ['country', 'orders', 'total', 'first_day'],
          ['DE', '4', '82.40', '2024-01-01'],
          ['FR', '1', '5.00', '2024-01-01'],
          ['US', '2', '107.24', '2024-01-01'],
        ],
      ]);
    }
    const base = join(root, 'sql-examples', 'out', 'orders_by_country');
    expect(readdirSync(base).sort()).toEqual(['country=DE', 'country=FR', 'country=US']);
    const de = readdirSync(join(base, 'country=DE')).filter((f) => !f.startsWith('.'));
    const lines = de.flatMap((f) => readFileSync(join(base, 'country=DE', f), 'utf8').split('\n').filter((l) => l !== ''));
    expect(lines.map((l) => JSON.parse(l) as unknown).sort((a, b) => (a as { order_id: number }).order_id - (b as { order_id: number }).order_id)).toEqual([
      { order_id: 1, customer: 'ALICE', amount: 19.9, dt: '2024-01-01' },
      { order_id: 3, customer: 'CAROL', amount: 42.5, dt: '2024-01-01' },
      { order_id: 5, customer: 'ALICE', amount: 12, dt: '2024-01-02' },
      { order_id: 9, customer: 'CAROL', amount: 8, dt: '2024-01-02' },
    ]);
  }, 60_000);

  it("match-recognize.sql: the Flink docs' falling-price period of the ticker (Flink's row, plus the count of falls)", async () => {
    expect(tables(await runExample('match-recognize.sql'))).toEqual([
      [
        ['op', 'symbol', 'start_tstamp', 'bottom_tstamp', 'end_tstamp', 'falls'],
        ['+I', 'ACME', '2011-04-01 10:00:04.000', '2011-04-01 10:00:07.000', '2011-04-01 10:00:08.000', '3'],
      ],
    ]);
  }, 60_000);

  it('windowed-aggregation.sql: TUMBLE counts (with COUNT DISTINCT) per minute and HOP counts per user', async () => {
    const [tumble, hop] = tables(await runExample('windowed-aggregation.sql'));
    expect(tumble).toEqual([
      ['op', 'window_start', 'window_end', 'clicks', 'users', 'checkouts'],
      ['+I', '2024-01-01 10:00:00.000', '2024-01-01 10:01:00.000', '3', '2', '0'],
      ['+I', '2024-01-01 10:01:00.000', '2024-01-01 10:02:00.000', '3', '3', '1'],
      ['+I', '2024-01-01 10:02:00.000', '2024-01-01 10:03:00.000', '2', '2', '0'],
      ['+I', '2024-01-01 10:03:00.000', '2024-01-01 10:04:00.000', '2', '2', '1'],
    ]);
    // Rows of one window come in no fixed order: compare as a set.
    const key = (r: string[]): string => r.join(' ');
    expect(hop!.slice(1).map(key).sort()).toEqual(
      [
        ['09:59', '10:01', 'alice', '2'],
        ['09:59', '10:01', 'bob', '1'],
        ['10:00', '10:02', 'alice', '3'],
        ['10:00', '10:02', 'bob', '2'],
        ['10:00', '10:02', 'carol', '1'],
        ['10:01', '10:03', 'alice', '1'],
        ['10:01', '10:03', 'bob', '1'],
        ['10:01', '10:03', 'carol', '2'],
        ['10:01', '10:03', 'dave', '1'],
        ['10:02', '10:04', 'alice', '1'],
        ['10:02', '10:04', 'bob', '1'],
        ['10:02', '10:04', 'carol', '1'],
        ['10:02', '10:04', 'dave', '1'],
        ['10:03', '10:05', 'alice', '1'],
        ['10:03', '10:05', 'bob', '1'],
      ]
        .map(([s, e, u, n]) => key(['+I', `2024-01-01 ${s}:00.000`, `2024-01-01 ${e}:00.000`, u!, n!]))
        .sort(),
    );
  }, 60_000);

  it('cdc-debezium.sql: the changelog of inserts, updates and deletes, and the exact aggregate per category', async () => {
    const [changelog, agg] = tables(await runExample('cdc-debezium.sql'));
    expect(changelog!.slice(1).map((r) => `${r[0]} ${r[1]}`)).toEqual([
      '+I 101', '+I 102', '+I 103', '+I 104', '+I 105', '-U 101', '+U 101', '-U 103', '+U 103', '-D 102', '+I 106',
    ]);
    // The materialized result: apply the changelog and keep the last row per category.
    const view = new Map<string, string[]>();
    for (const r of agg!.slice(1)) {
      if (r[0] === '+I' || r[0] === '+U') view.set(r[1]!, r.slice(2));
      else view.delete(r[1]!);
    }
    expect(Object.fromEntries(view)).toEqual({
      vehicles: ['1', '5.18', '5.18'],
      tools: ['2', '16.70', '12.50'],
      parts: ['2', '25.80', '25.00'],
    });
  }, 60_000);

  it('nexmark-q1.sql: q1 rows, totals and q2 selection are the same every run (fixed seed)', async () => {
    const [first, totals, q2] = tables(await runExample('nexmark-q1.sql'));
    expect(first).toEqual([
      ['auction', 'bidder', 'price', 'dateTime'],
      ['1000', '2000', '5186356.168', '2024-01-01 00:00:00.000'],
      ['1000', '2001', '118.948', '2024-01-01 00:00:00.000'],
      ['1000', '2001', '333.236', '2024-01-01 00:00:00.000'],
      ['1000', '2001', '3906.216', '2024-01-01 00:00:00.000'],
      ['1000', '2001', '9867535.640', '2024-01-01 00:00:00.000'],
    ]);
    expect(totals).toEqual([
      ['bids', 'total_eur', 'first_bid', 'last_bid'],
      ['9200', '59211908218.912', '2024-01-01 00:00:00.000', '2024-01-01 00:00:00.999'],
    ]);
    expect(q2!.length).toBe(34);
    expect(new Set(q2!.slice(1).map((r) => r[0]))).toEqual(new Set(['1107', '1230', '1353', '1476', '1599']));
    expect(q2!.slice(1).every((r) => Number(r[0]) % 123 === 0)).toBe(true);
  }, 60_000);
});
