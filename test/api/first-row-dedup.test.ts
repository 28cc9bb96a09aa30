// Proctime first-row deduplication is insert-only (Flink plans it so), so it can feed an append-only sink.
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

  it('plans an event-time first row as updating, as Flink 1.20 (a late earlier row may replace it)', async () => {
    env = TableEnvironment.create({ mode: 'streaming' });
    const dir = mkdtempSync(join(tmpdir(), 'sluice-dedup-'));
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in', 'in.csv'), 'a,1,2024-01-01 00:00:05\n');
    await (
      await env.executeSql(
        `CREATE TABLE ev (usr STRING, n INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'in')}', 'format' = 'csv')`,
      )
    ).await();
    await (await env.executeSql(`CREATE TABLE firsts (usr STRING, n INT) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'out')}', 'format' = 'csv')`)).await();
    await expect(
      env.executeSql('INSERT INTO firsts SELECT usr, n FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY usr ORDER BY ts ASC) AS rn FROM ev) WHERE rn = 1'),
    ).rejects.toThrow("doesn't support consuming update and delete changes which is produced by node Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=1], partitionBy=[usr], orderBy=[ROWTIME ts ASC]");
  });
});
