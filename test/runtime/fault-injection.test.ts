import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../src/types/row.js';
import { defaultRuntimeConfig, executeJob, type JobClient, type OperatorFactory } from '../../src/runtime/index.js';
import { SequenceSource } from './fakes/sequence-source.js';
import { FileCommitSink } from './fakes/file-commit-sink.js';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Chaos {
  seen: number;
  failAfter: number;
  failed: boolean;
  checkpointed: boolean;
  /** Records the source has read so far (set at the failure). */
  readAtFailure: number;
  sourceRead: () => number;
}

/**
 * Passes rows through and throws once: after `failAfter` rows once a checkpoint completed, or at end of
 * input if that never happened, so every trial fails exactly once.
 */
function failingPassThrough(state: Chaos): OperatorFactory {
  const fail = (): never => {
    state.failed = true;
    state.readAtFailure = state.sourceRead();
    throw new Error('injected task failure');
  };
  return {
    name: 'chaos',
    create() {
      let emit: (r: Row[]) => void = () => {};
      const snapshotSeen = new Map<number, number>();
      return {
        open(ctx) {
          emit = (r) => ctx.output.collect(r);
        },
        processBatch(rows) {
          state.seen += rows.length;
          if (!state.failed && state.checkpointed && state.seen >= state.failAfter) fail();
          emit(rows);
        },
        snapshotState(id) {
          snapshotSeen.set(id, state.seen);
          return undefined;
        },
        notifyCheckpointComplete(id) {
          // Only a checkpoint that holds progress makes the failure a real restore test.
          if ((snapshotSeen.get(id) ?? 0) > 0) state.checkpointed = true;
        },
        finish() {
          if (!state.failed) fail();
        },
      };
    },
  };
}

describe('exactly-once under injected failures', () => {
  it('commits every number exactly once in 24 seeded trials', async () => {
    const N = 3000;
    const rand = mulberry32(20261130);
    let restartsSeen = 0;
    let restoredFromCheckpoint = 0;
    for (let trial = 0; trial < 24; trial++) {
      const dir = mkdtempSync(join(tmpdir(), 'sluice-fi-'));
      const cpDir = mkdtempSync(join(tmpdir(), 'sluice-fi-cp-'));
      const commitFailure = trial % 4 === 3;
      const chaos: Chaos = {
        seen: 0, failAfter: 1 + Math.floor(rand() * N), failed: commitFailure, checkpointed: false, readAtFailure: 0,
        sourceRead: () => client.metrics().vertices.find((v) => v.vertexId === 'src')!.recordsIn,
      };
      const sink = new FileCommitSink(dir, { failCommitOnce: { remaining: commitFailure ? 1 : 0 } });
      // Paced so that several checkpoints (each fsyncs its files) complete while data flows, even on a loaded machine.
      const source = new SequenceSource({ from: 1, to: N, splits: 4, batchSize: 40, fetchDelayMs: 3 });
      let client: JobClient;
      client = executeJob(
        {
          jobName: `trial-${trial}`,
          vertices: [
            { kind: 'source', id: 'src', name: 'numbers', parallelism: 2, source },
            { kind: 'operator', id: 'chaos', name: 'chaos', parallelism: 2, operators: [failingPassThrough(chaos)] },
            { kind: 'sink', id: 'snk', name: 'files', parallelism: 2, sink },
          ],
          edges: [
            { from: 'src', to: 'chaos', partitioner: { kind: 'rebalance' } },
            { from: 'chaos', to: 'snk', partitioner: { kind: 'hash', key: (r) => Number(r.fields[0]) } },
          ],
        },
        defaultRuntimeConfig({
          checkpointIntervalMs: 3 + Math.floor(rand() * 10),
          checkpointDir: cpDir,
          restartStrategy: { kind: 'fixed-delay', attempts: 3, delayMs: 0 },
        }),
      );
      const res = await client.waitForCompletion();
      restartsSeen += res.restarts;
      if (process.env.FI_DEBUG) console.log(trial, res.restarts, client.metrics().vertices.find((v) => v.vertexId === "src")!.recordsIn, chaos.readAtFailure, chaos.checkpointed, client.metrics().completedCheckpoints);
      const read = client.metrics().vertices.find((v) => v.vertexId === 'src')!.recordsIn;
      // A restart from scratch reads all N again after the failure; a restore reads only what follows
      // the checkpointed positions.
      if (!commitFailure && read < N + chaos.readAtFailure) restoredFromCheckpoint++;
      const got = sink.committedNumbers().sort((a, b) => a - b);
      expect(got.length, `trial ${trial}`).toBe(N);
      expect(got, `trial ${trial}`).toEqual(Array.from({ length: N }, (_, i) => i + 1));
      rmSync(dir, { recursive: true, force: true });
      rmSync(cpDir, { recursive: true, force: true });
    }
    expect(restartsSeen).toBeGreaterThanOrEqual(20);
    // Reads between the failure and the cancellation blur this count, so it is only a floor.
    expect(restoredFromCheckpoint).toBeGreaterThanOrEqual(10);
  }, 20_000);
});
