// First-row deduplication by processing time, and by event time over inserts, is insert-only (Flink 2.x plans
// both so), so it can feed an append-only sink.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.startsWith('.') ? [] : [join(dir, e.name)]));
}

async function explainText(env: TableEnvironment, sql: string): Promise<string> {
  for await (const r of (await env.executeSql(sql)).collect()) return String(r.fields[0]);
  throw new Error('EXPLAIN returned no row');
}

describe('proctime first-row deduplication into a filesystem sink', () => {
  let env: TableEnvironment | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it('writes the first row per key, with rn = 1, into an append-only filesystem table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-dedup-'));
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in', 'in.csv'), 'a,1\nb,2\na,3\nc,4\nb,5\na,6\n');
    env = TableEnvironment.create({ mode: 'streaming' });
    await (
      await env.executeSql(`CREATE TABLE clicks (usr STRING, n INT, pt AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'in')}', 'format' = 'csv')`)
    ).await();
    await (await env.executeSql(`CREATE TABLE firsts (usr STRING, n INT, rn BIGINT) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'out')}', 'format' = 'csv')`)).await();
    const query = 'SELECT usr, n, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY usr ORDER BY pt ASC) AS rn FROM clicks) WHERE rn = 1';

    const plan = await explainText(env, `EXPLAIN CHANGELOG_MODE INSERT INTO firsts ${query}`);
    expect(plan).toContain('partitionBy=[usr], orderBy=[pt ASC], select=[usr, n, pt], changelogMode=[I])');
    expect(plan).toContain('Deduplicate(keep=[FirstRow], key=[usr], order=[PROCTIME], outputInsertOnly=[true])');
    expect(plan).toContain('1:BIGINT AS rn');

    await (await env.executeSql(`INSERT INTO firsts ${query}`)).await();
    const lines = filesUnder(join(dir, 'out')).flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l !== ''));
    expect(lines.sort()).toEqual(['a,1,1', 'b,2,1', 'c,4,1']);
  });

  it('writes the event-time first row per key into an append-only table, as Flink 2.3 plans and answers it', async () => {
    // Flink 2.3.0 for the same statements: changelogMode=[I], Deduplicate(... outputInsertOnly=[true]), and the
    // rows g (k 1), f (k 3) and c (k 2): out of order within the watermark's 30 s delay, so none is late.
    env = TableEnvironment.create({ mode: 'streaming' });
    const dir = mkdtempSync(join(tmpdir(), 'sluice-dedup-'));
    mkdirSync(join(dir, 'in'));
    const input = ['1,a,10:00:05', '1,b,10:00:03', '2,c,10:00:10', '1,d,10:00:01', '2,e,10:00:20', '3,f,10:00:04', '1,g,10:00:00'];
    writeFileSync(join(dir, 'in', 'in.csv'), input.map((l) => l.replace(/,([\d:]+)$/, ',2024-01-01 $1\n')).join(''));
    await (
      await env.executeSql(
        `CREATE TABLE ev (k INT, v STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '30' SECOND) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'in')}', 'format' = 'csv')`,
      )
    ).await();
    await (await env.executeSql(`CREATE TABLE firsts (k INT, v STRING, ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'out')}', 'format' = 'csv')`)).await();
    const query = 'SELECT k, v, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts ASC) AS rn FROM ev) WHERE rn = 1';
    const plan = await explainText(env, `EXPLAIN CHANGELOG_MODE ${query}`);
    expect(plan).toContain('partitionBy=[k], orderBy=[ROWTIME ts ASC], select=[k, v, ts], changelogMode=[I])');
    expect(plan).toContain('Deduplicate(keep=[FirstRow], key=[k], order=[ROWTIME], outputInsertOnly=[true])');
    await (await env.executeSql(`INSERT INTO firsts ${query}`)).await();
    const lines = filesUnder(join(dir, 'out')).flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l !== ''));
    expect(lines.sort()).toEqual(['1,g,"2024-01-01 10:00:00"', '2,c,"2024-01-01 10:00:10"', '3,f,"2024-01-01 10:00:04"']);
  });
});
