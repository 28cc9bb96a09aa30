import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRuntimeConfig, executeJob, type JobGraph } from '../../src/runtime/index.js';
import { ValidationError } from '../../src/errors/sluice-error.js';
import { SequenceSource } from './fakes/sequence-source.js';
import { FileCommitSink } from './fakes/file-commit-sink.js';
import { CollectSink } from './fakes/collect.js';

function graph(source: SequenceSource, sink: FileCommitSink | CollectSink, p = 2, sinkP = 2): JobGraph {
  return {
    jobName: 'seq',
    vertices: [
      { kind: 'source', id: 'src', name: 'numbers', parallelism: p, source },
      { kind: 'sink', id: 'snk', name: 'files', parallelism: sinkP, sink },
    ],
    edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'rebalance' } }],
  };
}

describe('a bounded job', () => {
  for (const model of ['single', 'per-split'] as const) {
    it(`reads every split once and commits at end of input (${model} fetcher)`, async () => {
      const assigned: Array<[number, string]> = [];
      const src = new SequenceSource({ from: 1, to: 5000, splits: 5, fetcherModel: model, onAssign: (s, id) => assigned.push([s, id]) });
      const sink = new FileCommitSink(mkdtempSync(join(tmpdir(), 'sluice-bj-')));
      const client = executeJob(graph(src, sink), defaultRuntimeConfig());
      const res = await client.waitForCompletion();
      expect(res.status).toBe('FINISHED');
      expect(client.status()).toBe('FINISHED');
      const got = sink.committedNumbers().sort((a, b) => a - b);
      expect(got).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
      expect(assigned.map(([, id]) => id).sort()).toEqual(['range-0', 'range-1', 'range-2', 'range-3', 'range-4']);
      expect(new Set(assigned.map(([s]) => s)).size).toBe(2);
      const m = client.metrics();
      expect(m.vertices.find((v) => v.vertexId === 'src')!.recordsIn).toBe(5000);
    });
  }

  it('batch mode rejects an unbounded source and names it', () => {
    const src = new SequenceSource({ from: 1, to: 10, splits: 1, boundedness: 'CONTINUOUS_UNBOUNDED' });
    expect(() => executeJob(graph(src, new CollectSink()), defaultRuntimeConfig({ runtimeMode: 'batch' }))).toThrow(ValidationError);
    expect(() => executeJob(graph(src, new CollectSink()), defaultRuntimeConfig({ runtimeMode: 'batch' }))).toThrow(/'numbers'/);
  });

  it('fails the job with the connector message when a fetcher fails', async () => {
    const src = new SequenceSource({ from: 1, to: 1000, splits: 1, failFetchAt: 500 });
    const client = executeJob(graph(src, new CollectSink(), 1, 1), defaultRuntimeConfig());
    await expect(client.waitForCompletion()).rejects.toThrow(/broker unreachable while reading 500/);
    expect(client.status()).toBe('FAILED');
  });

  it('keeps a caller-given job id and rejects a malformed one', async () => {
    const id = 'a'.repeat(32);
    const client = executeJob({ ...graph(new SequenceSource({ from: 1, to: 3, splits: 1 }), new CollectSink(), 1, 1), jobId: id }, defaultRuntimeConfig());
    expect(client.jobId).toBe(id);
    await client.waitForCompletion();
    expect(() => executeJob({ ...graph(new SequenceSource({ from: 1, to: 3, splits: 1 }), new CollectSink()), jobId: 'xyz' }, defaultRuntimeConfig())).toThrow(/32/);
  });
});
