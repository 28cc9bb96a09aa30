// A savepoint of a window aggregate planned in one phase restores into the two-phase plan (and back): the local
// phase is chained into the source's vertex and holds no state, the global phase is the vertex the one-phase
// aggregate was, with the same state (docs/state-format.md, "Window aggregate state").
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

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

const ROWS = 3000;

/** `CAST(ts AS STRING)` of a TIMESTAMP(3) at epoch ms `ms`. */
const time = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

/** HOP 1 s / 3 s over event time id * 10 ms, keyed by id % 3: per key and window, COUNT(*) and SUM(id). */
function expected(): string[] {
  const groups = new Map<string, [number, number]>();
  for (let id = 1; id <= ROWS; id++) {
    const t = id * 10;
    for (let start = Math.floor(t / 1000) * 1000 - 2000; start <= t; start += 1000) {
      const key = `${id % 3},"${time(start)}","${time(start + 3000)}"`;
      const g = groups.get(key) ?? [0, 0];
      groups.set(key, [g[0] + 1, g[1] + id]);
    }
  }
  return [...groups].map(([k, [c, s]]) => `${k},${c},${s}`).sort();
}

async function runFromSavepoint(firstStrategy: string, secondStrategy: string): Promise<string[]> {
  const out = mkdtempSync(join(tmpdir(), 'sluice-phase-out-'));
  const sp = mkdtempSync(join(tmpdir(), 'sluice-phase-sp-'));
  const ddl = [
    `CREATE TEMPORARY TABLE events (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id * 10, 3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen',
       'rows-per-second' = '2000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${ROWS}')`,
    `CREATE TEMPORARY TABLE sink (k BIGINT, ws STRING, we STRING, c BIGINT, s BIGINT) WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv')`,
  ];
  const insert = `INSERT INTO sink SELECT id % 3, CAST(window_start AS STRING), CAST(window_end AS STRING), COUNT(*), SUM(id)
    FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)) GROUP BY id % 3, window_start, window_end`;
  const config = { 'execution.checkpointing.interval': '200 ms', 'state.savepoints.dir': sp, 'parallelism.default': '2', 'table.local-time-zone': 'UTC' };
  const env = TableEnvironment.create({ config: { ...config, 'table.optimizer.agg-phase-strategy': firstStrategy } });
  for (const d of ddl) await env.executeSql(d);
  const job = (await env.executeSql(insert)).getJobClient()!;
  // At parallelism 2 the job first starts its worker thread, which a loaded machine may take a while to do.
  while (job.status() !== 'RUNNING') await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 700));
  let path = '';
  for await (const r of (await env.executeSql(`STOP JOB '${job.jobId}' WITH SAVEPOINT`)).collect()) path = String(r.fields[0]);
  expect(existsSync(join(path, '_metadata'))).toBe(true);
  await env.close();

  const env2 = TableEnvironment.create({ config: { ...config, 'table.optimizer.agg-phase-strategy': secondStrategy, 'execution.state-recovery.path': path } });
  for (const d of ddl) await env2.executeSql(d);
  await (await env2.executeSql(insert)).await();
  await env2.close();
  return committedLines(out).sort();
}

describe('changing table.optimizer.agg-phase-strategy across a savepoint', () => {
  it('restores a one-phase window aggregate into the two-phase plan with every window exactly once', async () => {
    expect(await runFromSavepoint('ONE_PHASE', 'AUTO')).toEqual(expected());
  }, 90_000);

  it('restores a two-phase window aggregate into the one-phase plan with every window exactly once', async () => {
    expect(await runFromSavepoint('AUTO', 'ONE_PHASE')).toEqual(expected());
  }, 90_000);
});
