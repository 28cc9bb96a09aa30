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

/** Every line of every finished (visible) part file under `dir`. */
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

describe('SHOW JOBS, STOP JOB WITH SAVEPOINT and resuming from it', () => {
  it('stops a running INSERT with a savepoint and a new job continues from it exactly once', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sluice-sp-out-'));
    const sp = mkdtempSync(join(tmpdir(), 'sluice-sp-'));
    const ddl = [
      `CREATE TEMPORARY TABLE nums (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '2000',
         'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '3000')`,
      `CREATE TEMPORARY TABLE sink (n BIGINT) WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv')`,
    ];
    const env = TableEnvironment.create({ config: { 'execution.checkpointing.interval': '200 ms', 'state.savepoints.dir': sp } });
    for (const d of ddl) await env.executeSql(d);
    const job = (await env.executeSql('INSERT INTO sink SELECT n FROM nums')).getJobClient()!;
    await new Promise((r) => setTimeout(r, 600));
    const jobs = await rows(env, 'SHOW JOBS');
    expect(jobs.find((j) => j[0] === job.jobId)?.[2]).toBe('RUNNING');
    const stopped = await rows(env, `STOP JOB '${job.jobId}' WITH SAVEPOINT`);
    const path = String(stopped[0]![0]);
    expect(existsSync(join(path, '_metadata'))).toBe(true);
    expect(job.status()).toBe('FINISHED');
    const before = committedLines(out).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(3000);
    await env.close();

    const env2 = TableEnvironment.create({ config: { 'execution.checkpointing.interval': '200 ms' } });
    for (const d of ddl) await env2.executeSql(d);
    await env2.executeSql(`SET 'execution.state-recovery.path' = '${path}'`);
    await (await env2.executeSql('INSERT INTO sink SELECT n FROM nums')).await();
    const all = committedLines(out).map(Number).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    await env2.close();
  }, 60_000);
});
