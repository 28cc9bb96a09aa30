import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

async function rows(env: TableEnvironment, sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r.fields);
  return out;
}

function committedLines(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith('.') && !f.startsWith('_'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((l) => l !== '');
}

describe('TIMESTAMP(p > 3) keys in checkpointed state', () => {
  it('first-row deduplication on microsecond keys, resumed from a savepoint, emits each key once', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sluice-ts6-out-'));
    const sp = mkdtempSync(join(tmpdir(), 'sluice-ts6-sp-'));
    // Seven keys, each one microsecond past a millisecond (PreciseTimestamps); the state that remembers them must
    // come back from the savepoint as the same values, or the resumed job would emit them again.
    const ddl = [
      `CREATE TEMPORARY TABLE nums (n BIGINT, p AS PROCTIME()) WITH ('connector' = 'datagen', 'rows-per-second' = '2000',
         'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '3000')`,
      `CREATE TEMPORARY TABLE sink (k TIMESTAMP_LTZ(6)) WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv')`,
    ];
    // First-row deduplication on proctime: insert-only, keyed state of the keys seen.
    const insert = `INSERT INTO sink SELECT k FROM (
      SELECT k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY p ASC) AS rn FROM (SELECT TO_TIMESTAMP_LTZ((n % 7) * 1000 + 1, 6) AS k, p FROM nums)
    ) WHERE rn = 1`;
    const config = { 'execution.checkpointing.interval': '200 ms', 'table.local-time-zone': 'UTC' };
    const env = TableEnvironment.create({ config: { ...config, 'state.savepoints.dir': sp } });
    for (const d of ddl) await env.executeSql(d);
    const job = (await env.executeSql(insert)).getJobClient()!;
    await new Promise((r) => setTimeout(r, 600));
    const stopped = await rows(env, `STOP JOB '${job.jobId}' WITH SAVEPOINT`);
    const path = String(stopped[0]![0]);
    expect(existsSync(join(path, '_metadata'))).toBe(true);
    await env.close();

    const env2 = TableEnvironment.create({ config });
    for (const d of ddl) await env2.executeSql(d);
    await env2.executeSql(`SET 'execution.state-recovery.path' = '${path}'`);
    await (await env2.executeSql(insert)).await();
    expect(committedLines(out).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `"1970-01-01 00:00:00.00${i}001Z"`));
    await env2.close();
  }, 60_000);
});
