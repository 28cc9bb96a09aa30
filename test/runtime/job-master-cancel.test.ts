import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

describe('cancelling a job', () => {
  it('ends a job canceled while it still restores from a savepoint (status CREATED), instead of leaving it running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-cancel-restore-'));
    const env = TableEnvironment.create({ config: { 'execution.checkpointing.interval': '1 s' } });
    await env.executeSql("CREATE TABLE src (a INT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')");
    await env.executeSql(`CREATE TABLE snk (a INT) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'out')}', 'format' = 'csv')`);
    const first = (await env.executeSql('INSERT INTO snk SELECT a FROM src')).getJobClient()!;
    await new Promise((r) => setTimeout(r, 300));
    const savepoint = await first.stopWithSavepoint(dir);
    await env.executeSql(`SET 'execution.state-recovery.path' = '${savepoint}'`);
    const restoring = (await env.executeSql('INSERT INTO snk SELECT a FROM src')).getJobClient()!;
    expect(restoring.status()).toBe('CREATED');
    await restoring.cancel();
    expect(restoring.status()).toBe('CANCELED');
    expect((await restoring.waitForCompletion()).status).toBe('CANCELED');
    await env.close();
  }, 30_000);
});
