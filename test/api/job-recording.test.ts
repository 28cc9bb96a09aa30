// What the main thread's planning of a job resolved, recorded and replayed in a worker (api/job-recording.ts): the
// worker gets the same tables and views (schema, watermark, key, options), the same not-found messages, and only the
// names the main thread asked about, after crossing threads as structured clones.
import { describe, expect, it } from 'vitest';
import { CodeFactoryUse } from '../../src/api/code-table-replay.js';
import { JobRecorder, JobReplayer } from '../../src/api/job-recording.js';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { ObjectNotFoundError } from '../../src/errors/sluice-error.js';

async function recorderOf(ddl: readonly string[]): Promise<JobRecorder> {
  const env = TableEnvironment.create({ mode: 'streaming' });
  for (const s of ddl) await env.executeSql(s);
  return new JobRecorder(env.session.catalogs, new CodeFactoryUse());
}

describe('the tables a job resolved, recorded for worker threads', () => {
  it('gives a worker the table, view, key, watermark and options the main thread resolved', async () => {
    const rec = await recorderOf([
      `CREATE TABLE t (id BIGINT NOT NULL, ts TIMESTAMP(3), path STRING METADATA FROM 'file.path' VIRTUAL, d AS id * 2,
         WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, PRIMARY KEY (id) NOT ENFORCED) COMMENT 'it''s' WITH ('connector' = 'filesystem', 'path' = '/nonexistent', 'format' = 'json')`,
      'CREATE TEMPORARY VIEW v AS SELECT id, d FROM t',
    ]);
    const main = [await rec.resolveTable(['t']), await rec.resolveTable(['default_catalog', 'default_database', 'v'])];
    const recorded = rec.recorded();
    if (typeof recorded === 'string') throw new Error(recorded);
    const worker = new JobReplayer(structuredClone(recorded));
    const replayed = [await worker.resolveTable(['t']), await worker.resolveTable(['default_catalog', 'default_database', 'v'])];
    expect(replayed).toEqual(main);
    expect(replayed[0]!.table.schema.watermarkSpecs).toEqual([{ rowtimeAttribute: 'ts', expression: "`ts` - INTERVAL '1' SECOND" }]);
    expect(replayed[1]!.isTemporary).toBe(true);
  });

  it('replays a name the main thread did not find with its message, and refuses one it never asked about', async () => {
    const rec = await recorderOf([]);
    await expect(rec.resolveTable(['nope'])).rejects.toThrow(ObjectNotFoundError);
    expect(await rec.listTableNames(['nope'])).toEqual([]);
    const worker = new JobReplayer(structuredClone(rec.recorded() as never));
    await expect(worker.resolveTable(['nope'])).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(worker.resolveTable(['nope'])).rejects.toThrow(/^Object 'nope' not found$/);
    expect(await worker.listTableNames(['nope'])).toEqual([]);
    await expect(worker.resolveTable(['other'])).rejects.toThrow(/internal: a worker thread resolved table 'other', which the main thread's planning of the job did not/);
  });
});
