import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRuntimeConfig, executeJob, findLatestCompletedCheckpoint, type JobGraph, type RuntimeConfig } from '../../../src/runtime/index.js';
import { readCheckpoint, writeCheckpoint } from '../../../src/runtime/checkpoint/checkpoint-storage.js';
import type { CompletedCheckpoint } from '../../../src/runtime/checkpoint/completed-checkpoint.js';
import { encodeState } from '../../../src/runtime/state/state-codec.js';
import { SequenceSource } from '../fakes/sequence-source.js';
import { FileCommitSink } from '../fakes/file-commit-sink.js';

const tmp = (p: string): string => mkdtempSync(join(tmpdir(), p));
const flipLastByte = (path: string): void => {
  const b = readFileSync(path);
  b[b.length - 1] ^= 0xff;
  writeFileSync(path, b);
};
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
  const checkpoint = (id: number): CompletedCheckpoint => ({
    jobId: 'a'.repeat(32), checkpointId: id, isSavepoint: false, timestamp: 1, parallelism: new Map([['t', 1]]),
    enumerators: new Map(), committables: [], path: undefined, layout: 'vertex', maxParallelism: 128,
    vertices: new Map([['t#0', { finished: false, splits: undefined, operators: [new Uint8Array([1, 2, 3, id])], writerState: undefined }]]),
  });

  it('findLatestCompletedCheckpoint ignores directories without _metadata', async () => {
    const jobDir = tmp('sluice-ck-');
    for (const n of [1, 2]) await writeCheckpoint(join(jobDir, `chk-${n}`), checkpoint(n));
    mkdirSync(join(jobDir, 'chk-3'));
    expect(await findLatestCompletedCheckpoint(jobDir)).toBe(join(jobDir, 'chk-2'));
    expect(await findLatestCompletedCheckpoint(join(jobDir, 'missing'))).toBeUndefined();
    const back = await readCheckpoint(join(jobDir, 'chk-2'));
    expect(back.layout === 'vertex' && back.vertices.get('t#0')!.operators).toEqual([new Uint8Array([1, 2, 3, 2])]);
  });

  it('writes operator state of a MB or more into the state file without a copy, the same bytes encodeState gives', async () => {
    const dir = tmp('sluice-big-');
    const big = new Uint8Array(3 << 20);
    for (let i = 0; i < big.length; i += 4096) big[i] = i >>> 12;
    const cp = checkpoint(1);
    const snap = { finished: false, splits: undefined, operators: [new Uint8Array([9]), big, big.subarray(5, (1 << 20) + 7)], writerState: undefined };
    const vertices = new Map([['t#0', snap], ['u#0', { ...snap, operators: [new Uint8Array([4])] }]]);
    await writeCheckpoint(join(dir, 'chk-1'), { ...cp, vertices });
    expect(Buffer.from(readFileSync(join(dir, 'chk-1', 'vertex-0.state'))).equals(Buffer.from(encodeState(snap)))).toBe(true);
    const back = await readCheckpoint(join(dir, 'chk-1'));
    const ops = back.layout === 'vertex' ? back.vertices.get('t#0')!.operators : [];
    expect(ops.map((o) => Buffer.from(o).toString('base64'))).toEqual(snap.operators.map((o) => Buffer.from(o).toString('base64')));
    // The length and checksum in _metadata are those of the whole file: a flipped byte is still found.
    flipLastByte(join(dir, 'chk-1', 'vertex-0.state'));
    await expect(readCheckpoint(join(dir, 'chk-1'))).rejects.toThrow(/does not match its checksum/);
  });

  it.each([
    ['a truncated state file', (d: string) => truncateSync(join(d, 'vertex-0.state'), 3), /has 3 bytes, \d+ were written/],
    ['a missing state file', (d: string) => rmSync(join(d, 'vertex-0.state')), /state file 'vertex-0.state' is missing/],
    ['a state file with flipped bytes', (d: string) => flipLastByte(join(d, 'vertex-0.state')), /does not match its checksum/],
    ['a garbled _metadata', (d: string) => writeFileSync(join(d, '_metadata'), 'x'), /_metadata file cannot be decoded/],
  ])('skips a checkpoint torn by %s, names it, and uses the one before', async (_what, tear, reason) => {
    const jobDir = tmp('sluice-torn-');
    for (const n of [1, 2]) await writeCheckpoint(join(jobDir, `chk-${n}`), checkpoint(n));
    tear(join(jobDir, 'chk-2'));
    const skipped: string[] = [];
    expect(await findLatestCompletedCheckpoint(jobDir, (p, r) => skipped.push(`${p}: ${r}`))).toBe(join(jobDir, 'chk-1'));
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toContain(join(jobDir, 'chk-2'));
    expect(skipped[0]).toMatch(reason);
    await expect(readCheckpoint(join(jobDir, 'chk-2'))).rejects.toThrow(/Checkpoint '.*chk-2' is incomplete/);
  });

  it('refuses a checkpoint of an unknown format version with a clear error', async () => {
    const dir = join(tmp('sluice-fmt-'), 'chk-1');
    await writeCheckpoint(dir, checkpoint(1));
    writeFileSync(join(dir, '_metadata'), encodeState({ format: 'sluice-checkpoint-v99', taskFiles: [] }));
    await expect(readCheckpoint(dir)).rejects.toThrow(/its _metadata has format 'sluice-checkpoint-v99'; this version of Sluice reads 'sluice-checkpoint-v1', 'sluice-checkpoint-v2', 'sluice-checkpoint-v3'/);
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
  it('a checkpoint restores at another parallelism: splits and pending commits are shared out, output exactly once', async () => {
    const out = tmp('sluice-par-out-');
    const cpDir = tmp('sluice-par-cp-');
    const N = 4000;
    const cfg: RuntimeConfig = defaultRuntimeConfig({ checkpointIntervalMs: 5, checkpointDir: cpDir });
    const first = executeJob(graph(new SequenceSource({ from: 1, to: N, splits: 4, batchSize: 20, fetchDelayMs: 1 }), new FileCommitSink(out, { failCommitOnce: { remaining: 1 } })), cfg);
    await expect(first.waitForCompletion()).rejects.toThrow(/injected commit failure/);
    const latest = await findLatestCompletedCheckpoint(join(cpDir, first.jobId));
    expect(latest).toBeDefined();
    const sink = new FileCommitSink(out);
    const g = graph(new SequenceSource({ from: 1, to: N, splits: 4, batchSize: 20, fetchDelayMs: 1 }), sink);
    const rescaled: JobGraph = { ...g, vertices: g.vertices.map((v) => ({ ...v, parallelism: 3 })) };
    const second = executeJob(rescaled, { ...cfg, restorePath: latest });
    await second.waitForCompletion();
    expect(sink.committedNumbers().sort((a, b) => a - b)).toEqual(all(N));
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
