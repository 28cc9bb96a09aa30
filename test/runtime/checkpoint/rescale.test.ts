import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRuntimeConfig, executeJob, type JobGraph } from '../../../src/runtime/index.js';
import { keyGroupOf, keyGroupRange, subtaskOfKeyGroup } from '../../../src/runtime/key-groups.js';
import { FileCommitSink } from '../fakes/file-commit-sink.js';
import { SequenceSource } from '../fakes/sequence-source.js';
import { keyedCounter } from '../fakes/keyed-counter.js';

const tmp = (p: string): string => mkdtempSync(join(tmpdir(), p));
const KEYS = 37;

function graph(n: number, parallelism: number, out: string): JobGraph {
  return {
    jobName: 'rescale',
    vertices: [
      { kind: 'source', id: 'src', name: 'numbers', parallelism, source: new SequenceSource({ from: 1, to: n, splits: 5, batchSize: 10, fetchDelayMs: 2 }) },
      { kind: 'operator', id: 'cnt', name: 'count', parallelism, operators: [keyedCounter(KEYS)] },
      { kind: 'sink', id: 'snk', name: 'files', parallelism, sink: new FileCommitSink(out) },
    ],
    edges: [
      { from: 'src', to: 'cnt', partitioner: { kind: 'hash', key: (r) => (r.fields[0] as number) % KEYS } },
      { from: 'cnt', to: 'snk', partitioner: { kind: 'forward' } },
    ],
  };
}

function committedLines(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith('part-'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((l) => l !== '');
}

describe('key groups', () => {
  it('ranges of every parallelism are contiguous, cover every group once and agree with subtaskOfKeyGroup', () => {
    for (const maxP of [1, 7, 128, 129]) {
      for (let p = 1; p <= Math.min(maxP, 20); p++) {
        let next = 0;
        for (let i = 0; i < p; i++) {
          const r = keyGroupRange(maxP, p, i);
          expect(r.start).toBe(next);
          for (let g = r.start; g <= r.end; g++) expect(subtaskOfKeyGroup(g, maxP, p)).toBe(i);
          next = r.end + 1;
        }
        expect(next).toBe(maxP);
      }
    }
  });

  it('a key always falls into the same group, and keys spread over the groups', () => {
    const counts = new Array<number>(128).fill(0);
    for (let k = 0; k < 12_800; k++) counts[keyGroupOf(k, 128)]!++;
    expect(Math.min(...counts)).toBeGreaterThan(50);
    expect(Math.max(...counts)).toBeLessThan(160);
    // Pinned: the group of a key is part of the checkpoint format (docs/state-format.md).
    expect([0, 1, -7, 2 ** 40, 'abc', 5n, true, null].map((k) => keyGroupOf(k, 128))).toMatchSnapshot();
  });
});

describe('restoring at another parallelism', () => {
  it('keyed state and timers follow their key groups from 2 to 3 to 1 to 2 subtasks, splits are shared out, nothing lost or doubled', async () => {
    const N = 6000;
    const spDir = tmp('sluice-rescale-sp-');
    const cfg = defaultRuntimeConfig({ checkpointIntervalMs: 20 });
    let restorePath: string | undefined;
    const outs: string[] = [];
    for (const [p, runMs] of [[2, 150], [3, 150], [1, 150], [2, undefined]] as const) {
      const out = tmp('sluice-rescale-out-');
      outs.push(out);
      const job = executeJob(graph(N, p, out), { ...cfg, restorePath });
      if (runMs === undefined) {
        await job.waitForCompletion();
        break;
      }
      await new Promise((r) => setTimeout(r, runMs));
      restorePath = await job.stopWithSavepoint(spDir);
      // Each stage moved data on, so each restore carried state that had changed.
      expect(job.metrics().vertices.find((v) => v.vertexId === 'cnt')!.recordsIn).toBeGreaterThan(0);
      expect((await job.waitForCompletion()).status).toBe('FINISHED');
    }
    // The counting operator emits only at end of input: the first jobs stopped before it.
    for (const o of outs.slice(0, -1)) expect(committedLines(o)).toEqual([]);
    const got = committedLines(outs.at(-1)!).sort();
    const want = new Map<number, [number, number]>();
    for (let n = 1; n <= N; n++) {
      const w = want.get(n % KEYS) ?? [0, 0];
      want.set(n % KEYS, [w[0] + 1, w[1] + n]);
    }
    expect(got).toEqual([...want].map(([k, [c, s]]) => `${k}:${c}:${s}`).sort());
  });

  it('refuses a parallelism above the checkpoint\'s max parallelism, naming the task and the limit', async () => {
    const spDir = tmp('sluice-rescale-max-');
    const cfg = defaultRuntimeConfig({ checkpointIntervalMs: 20, maxParallelism: 4 });
    const first = executeJob(graph(6000, 2, tmp('sluice-rescale-o-')), cfg);
    await new Promise((r) => setTimeout(r, 80));
    const sp = await first.stopWithSavepoint(spDir);
    const second = executeJob(graph(6000, 5, tmp('sluice-rescale-o-')), { ...defaultRuntimeConfig({ checkpointIntervalMs: 20 }), restorePath: sp });
    await expect(second.waitForCompletion()).rejects.toThrow(/The parallelism of 'numbers' \(5\) is higher than 'pipeline.max-parallelism' \(4, kept from the checkpoint being restored\)/);
    expect(second.status()).toBe('FAILED');
  });
});
