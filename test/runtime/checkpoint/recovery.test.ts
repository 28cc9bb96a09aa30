import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRuntimeConfig, executeJob, findLatestCompletedCheckpoint, type JobGraph, type RuntimeConfig } from '../../../src/runtime/index.js';
import { SequenceSource } from '../fakes/sequence-source.js';
import { FileCommitSink } from '../fakes/file-commit-sink.js';

const tmp = (p: string): string => mkdtempSync(join(tmpdir(), p));
const all = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

function graph(source: SequenceSource, sink: FileCommitSink, jobId?: string): JobGraph {
  return {
    jobName: 'recovery',
    ...(jobId ? { jobId } : {}),
    vertices: [
      { kind: 'source', id: 'src', name: 'numbers', parallelism: 2, source },
      { kind: 'sink', id: 'snk', name: 'files', parallelism: 2, sink },
    ],
    edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'hash', key: (r) => Number(r.fields[0]) } }],
  };
}

describe('checkpoint storage', () => {
  it('findLatestCompletedCheckpoint ignores directories without _metadata', async () => {
    const jobDir = tmp('sluice-ck-');
    for (const n of [1, 2, 3]) mkdirSync(join(jobDir, `chk-${n}`));
    writeFileSync(join(jobDir, 'chk-1', '_metadata'), 'x');
    writeFileSync(join(jobDir, 'chk-2', '_metadata'), 'x');
    expect(await findLatestCompletedCheckpoint(jobDir)).toBe(join(jobDir, 'chk-2'));
    expect(await findLatestCompletedCheckpoint(join(jobDir, 'missing'))).toBeUndefined();
  });

  it('keeps only num-retained completed checkpoints under <dir>/<jobId>/', async () => {
    const cpDir = tmp('sluice-ret-');
    const sink = new FileCommitSink(tmp('sluice-ret-out-'));
    const jobId = 'b'.repeat(32);
    const client = executeJob(
      graph(new SequenceSource({ from: 1, to: 4000, splits: 2, batchSize: 20, fetchDelayMs: 1 }), sink, jobId),
      defaultRuntimeConfig({ checkpointIntervalMs: 5, checkpointDir: cpDir, checkpointsRetained: 2 }),
    );
    await client.waitForCompletion();
    expect(client.metrics().completedCheckpoints).toBeGreaterThan(2);
    const dirs = readdirSync(join(cpDir, jobId)).filter((d) => d.startsWith('chk-'));
    expect(dirs.length).toBeLessThanOrEqual(2);
    for (const d of dirs) expect(existsSync(join(cpDir, jobId, d, '_metadata'))).toBe(true);
  });
});

describe('recovery', () => {
  it('fails at once, naming the task, when restored with another parallelism, even with restarts enabled', async () => {
    const cpDir = tmp('sluice-par-cp-');
    const cfg: RuntimeConfig = defaultRuntimeConfig({
      checkpointIntervalMs: 5,
      checkpointDir: cpDir,
      restartStrategy: { kind: 'fixed-delay', attempts: 1000, delayMs: 1 },
    });
    const first = executeJob(graph(new SequenceSource({ from: 1, to: 2000, splits: 2, batchSize: 20, fetchDelayMs: 1 }), new FileCommitSink(tmp('sluice-par-out-'))), cfg);
    await first.waitForCompletion();
    const latest = await findLatestCompletedCheckpoint(join(cpDir, first.jobId));
    const g = graph(new SequenceSource({ from: 1, to: 2000, splits: 2, batchSize: 20, fetchDelayMs: 1 }), new FileCommitSink(tmp('sluice-par-out-')));
    const rescaled: JobGraph = { ...g, vertices: g.vertices.map((v) => ({ ...v, parallelism: 3 })) };
    const second = executeJob(rescaled, { ...cfg, restorePath: latest });
    await expect(second.waitForCompletion()).rejects.toThrow(/Cannot restore 'numbers.*' with parallelism 3 from a checkpoint taken with parallelism 2/);
    expect(second.status()).toBe('FAILED');
  });

  it('re-commits the committables of the checkpoint a new job starts from', async () => {
    const out = tmp('sluice-rc-out-');
    const cpDir = tmp('sluice-rc-cp-');
    const N = 4000;
    const failing = new FileCommitSink(out, { failCommitOnce: { remaining: 1 } });
    const cfg: RuntimeConfig = defaultRuntimeConfig({ checkpointIntervalMs: 5, checkpointDir: cpDir });
    const first = executeJob(graph(new SequenceSource({ from: 1, to: N, splits: 4, batchSize: 20, fetchDelayMs: 1 }), failing), cfg);
    await expect(first.waitForCompletion()).rejects.toThrow(/injected commit failure/);
    expect(first.status()).toBe('FAILED');
    const latest = await findLatestCompletedCheckpoint(join(cpDir, first.jobId));
    expect(latest).toBeDefined();
    expect(readdirSync(out).some((f) => f.startsWith('.pending-'))).toBe(true);

    const sink = new FileCommitSink(out);
    const second = executeJob(
      graph(new SequenceSource({ from: 1, to: N, splits: 4, batchSize: 20, fetchDelayMs: 1 }), sink, first.jobId),
      { ...cfg, restorePath: latest },
    );
    await second.waitForCompletion();
    expect(sink.committedNumbers().sort((a, b) => a - b)).toEqual(all(N));
  });

  it('stops with a savepoint and a new job resumes from it without loss or duplicates', async () => {
    const out = tmp('sluice-sp-out-');
    const spDir = tmp('sluice-sp-');
    const N = 6000;
    const mk = (): SequenceSource => new SequenceSource({ from: 1, to: N, splits: 4, batchSize: 10, fetchDelayMs: 2 });
    const first = executeJob(graph(mk(), new FileCommitSink(out)), defaultRuntimeConfig({ checkpointIntervalMs: 10 }));
    await new Promise((r) => setTimeout(r, 60));
    const path = await first.stopWithSavepoint(spDir);
    const res = await first.waitForCompletion();
    expect(res.savepointPath).toBe(path);
    expect(path).toMatch(new RegExp(`savepoint-${first.jobId.slice(0, 6)}-[0-9a-f]+$`));
    expect(existsSync(join(path, '_metadata'))).toBe(true);
    const sink = new FileCommitSink(out);
    const before = sink.committedNumbers().length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(N);

    const second = executeJob(graph(mk(), sink), defaultRuntimeConfig({ restorePath: path }));
    await second.waitForCompletion();
    expect(sink.committedNumbers().sort((a, b) => a - b)).toEqual(all(N));
  });

  it('a savepoint taken while running leaves the job running and its output exactly once', async () => {
    const out = tmp('sluice-sp2-out-');
    const N = 4000;
    const sink = new FileCommitSink(out);
    const client = executeJob(
      graph(new SequenceSource({ from: 1, to: N, splits: 4, batchSize: 10, fetchDelayMs: 2 }), sink),
      defaultRuntimeConfig({ checkpointIntervalMs: 10 }),
    );
    await new Promise((r) => setTimeout(r, 30));
    const path = await client.triggerSavepoint(tmp('sluice-sp2-'));
    expect(existsSync(join(path, '_metadata'))).toBe(true);
    expect(client.status()).toBe('RUNNING');
    const res = await client.waitForCompletion();
    expect(res.savepointPath).toBeUndefined();
    expect(sink.committedNumbers().sort((a, b) => a - b)).toEqual(all(N));
  });

  it('cancel stops a running unbounded job', async () => {
    const src = new SequenceSource({ from: 1, to: 1e9, splits: 1, batchSize: 10, fetchDelayMs: 1, boundedness: 'CONTINUOUS_UNBOUNDED' });
    const client = executeJob(graph(src, new FileCommitSink(tmp('sluice-cancel-'))), defaultRuntimeConfig());
    await new Promise((r) => setTimeout(r, 20));
    expect(client.status()).toBe('RUNNING');
    await client.cancel();
    expect(client.status()).toBe('CANCELED');
    expect((await client.waitForCompletion()).status).toBe('CANCELED');
  });
});
