import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRuntimeConfig, executeJob, type JobGraph } from '../../../src/runtime/index.js';
import { CHECKPOINT_HISTORY_SIZE } from '../../../src/runtime/job-client.js';
import { SequenceSource } from '../fakes/sequence-source.js';
import { FileCommitSink } from '../fakes/file-commit-sink.js';

const tmp = (p: string): string => mkdtempSync(join(tmpdir(), p));

function graph(source: SequenceSource, sink: FileCommitSink, jobId?: string): JobGraph {
  return {
    jobName: 'stats',
    ...(jobId ? { jobId } : {}),
    vertices: [
      { kind: 'source', id: 'src', name: 'numbers', parallelism: 2, source },
      { kind: 'sink', id: 'snk', name: 'files', parallelism: 1, sink },
    ],
    edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'rebalance' } }],
  };
}

function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

describe('checkpoint statistics', () => {
  it('keeps the newest completed checkpoints with duration, size and path, and the last one as lastCheckpoint*', async () => {
    const cpDir = tmp('sluice-stats-cp-');
    const jobId = 'c'.repeat(32);
    const before = Date.now();
    const client = executeJob(
      graph(new SequenceSource({ from: 1, to: 4000, splits: 2, batchSize: 20, fetchDelayMs: 1 }), new FileCommitSink(tmp('sluice-stats-out-')), jobId),
      defaultRuntimeConfig({ checkpointIntervalMs: 5, checkpointDir: cpDir, checkpointsRetained: 100 }),
    );
    await client.waitForCompletion();
    const m = client.metrics();
    expect(m.completedCheckpoints).toBeGreaterThan(2);
    expect(m.failedCheckpoints).toBe(0);
    expect(m.checkpointHistory.length).toBe(Math.min(m.completedCheckpoints, CHECKPOINT_HISTORY_SIZE));
    const ids = m.checkpointHistory.map((c) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const newest = m.checkpointHistory[0]!;
    expect(newest).toMatchObject({ id: m.lastCheckpointId, status: 'COMPLETED', isSavepoint: false, failureMessage: undefined, path: join(cpDir, jobId, `chk-${m.lastCheckpointId}`) });
    expect(newest.triggerTimestamp).toBeGreaterThanOrEqual(before);
    expect(newest.durationMs).toBeGreaterThanOrEqual(0);
    // The last acknowledgement comes before the checkpoint is written.
    expect(newest.acknowledgedMs).toBeGreaterThanOrEqual(0);
    expect(newest.acknowledgedMs).toBeLessThanOrEqual(newest.durationMs);
    // The size is what was written: the task files and _metadata of its directory.
    expect(newest.sizeBytes).toBe(dirBytes(newest.path!));
    expect(m.lastCheckpointDurationMs).toBe(newest.durationMs);
    expect(m.lastCheckpointSizeBytes).toBe(newest.sizeBytes);
  });

  it('counts a checkpoint that could not be written as failed, with the reason, and without touching lastCheckpoint*', async () => {
    // The checkpoint directory is below a regular file, so writing the first checkpoint fails.
    const blocker = join(tmp('sluice-stats-cp-'), 'a-file');
    writeFileSync(blocker, '');
    const client = executeJob(
      graph(new SequenceSource({ from: 1, to: 100_000, splits: 2, batchSize: 10, fetchDelayMs: 1 }), new FileCommitSink(tmp('sluice-stats-out-'))),
      defaultRuntimeConfig({ checkpointIntervalMs: 5, checkpointDir: join(blocker, 'cp') }),
    );
    await expect(client.waitForCompletion()).rejects.toThrow();
    const m = client.metrics();
    expect(m.completedCheckpoints).toBe(0);
    expect(m.failedCheckpoints).toBe(1);
    expect(m.checkpointHistory).toEqual([
      expect.objectContaining({ id: 1, status: 'FAILED', isSavepoint: false, sizeBytes: undefined, path: undefined }),
    ]);
    expect(m.checkpointHistory[0]!.failureMessage).toMatch(/ENOTDIR|not a directory/);
    expect(m.lastCheckpointDurationMs).toBeUndefined();
    expect(m.lastCheckpointSizeBytes).toBeUndefined();
  });

  it('does not count the final checkpoint of a job without periodic checkpoints', async () => {
    const client = executeJob(
      graph(new SequenceSource({ from: 1, to: 100, splits: 2, batchSize: 10, fetchDelayMs: 0 }), new FileCommitSink(tmp('sluice-stats-out-'))),
      defaultRuntimeConfig({}),
    );
    await client.waitForCompletion();
    const m = client.metrics();
    expect([m.completedCheckpoints, m.failedCheckpoints, m.checkpointHistory.length, m.lastCheckpointDurationMs]).toEqual([0, 0, 0, undefined]);
  });
});
