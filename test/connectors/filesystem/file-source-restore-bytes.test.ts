import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Configuration } from '../../../src/config/configuration.js';
import { FileSource } from '../../../src/connectors/filesystem/file-source.js';
import { JsonFormatFactory } from '../../../src/formats/index.js';
import { defaultRuntimeConfig, executeJob, type JobClient, type OperatorFactory, type Sink, type SinkWriter } from '../../../src/runtime/index.js';
import { DataTypes } from '../../../src/types/data-types.js';
import type { Row } from '../../../src/types/row.js';
import { tableContext } from '../datagen/context.js';

/**
 * numBytesIn across a restart: a source reads again what followed the checkpoint it restores (or all of it,
 * without one). Those bytes must count once, so that bytes consumed plus bytes left stay the files' size
 * and a progress bar by bytes ends at 100 %, not past it.
 */

class SlowSink implements Sink<Row> {
  rows = 0;
  createWriter(): SinkWriter<Row> {
    return {
      write: async (b) => {
        this.rows += b.length;
        await new Promise((r) => setTimeout(r, 2));
      },
      flush: async () => {},
      close: async () => {},
    };
  }
}

function jsonSource(root: string): FileSource {
  const type = { kind: 'ROW' as const, fields: [{ name: 'id', type: DataTypes.INT() }, { name: 's', type: DataTypes.STRING() }], nullable: false };
  const format = new JsonFormatFactory().createDecodingFormat(tableContext([], {}), new Configuration());
  return new FileSource({
    root, partitionKeys: [], pathRegex: undefined, monitorIntervalMs: undefined,
    format: { kind: 'lines', decoder: () => format.createRuntimeDecoder(type) },
    fields: [{ kind: 'file', index: 0 }, { kind: 'file', index: 1 }],
    chunkSize: 200,
    split: { maxBytes: 8 * 1024, minBytes: 1 },
  });
}

interface Failure {
  seen: number;
  failed: boolean;
  /** Rows seen when a checkpoint holding progress completed; the failure waits for one when checkpointing is on. */
  checkpointedAt: number | undefined;
  /** Bytes the source had counted when the failure struck. */
  bytesAtFailure: number;
}

/** Passes rows through and throws once, `after` rows past the first checkpoint that holds progress (or past the start). */
function failOnce(state: Failure, after: number, waitForCheckpoint: boolean, bytes: () => number): OperatorFactory {
  return {
    name: 'fail-once',
    create() {
      let emit: (r: Row[]) => void = () => {};
      const seenAt = new Map<number, number>();
      return {
        open(ctx) {
          emit = (r) => ctx.output.collect(r);
        },
        processBatch(rows) {
          state.seen += rows.length;
          const from = waitForCheckpoint ? state.checkpointedAt : 0;
          if (!state.failed && from !== undefined && state.seen >= from + after) {
            state.failed = true;
            state.bytesAtFailure = bytes();
            throw new Error('injected task failure');
          }
          emit(rows);
        },
        snapshotState(id) {
          seenAt.set(id, state.seen);
          return undefined;
        },
        notifyCheckpointComplete(id) {
          if (state.checkpointedAt === undefined && (seenAt.get(id) ?? 0) > 0) state.checkpointedAt = seenAt.get(id);
        },
      };
    },
  };
}

function lines(from: number, to: number): string {
  let out = '';
  for (let i = from; i <= to; i++) out += `{"id":${i},"s":"${'x'.repeat(i % 13)}"}\n`;
  return out;
}

function sourceBytes(job: JobClient): { done: number; left: number | undefined } {
  const v = job.metrics().vertices.find((x) => x.vertexId === 'src')!;
  const subtasks = v.subtasks ?? [];
  const done = subtasks.reduce((n, s) => n + (s.bytesIn ?? 0), 0);
  if (v.unassignedBytes === undefined || subtasks.some((s) => s.pendingBytes === undefined)) return { done, left: undefined };
  return { done, left: v.unassignedBytes + subtasks.reduce((n, s) => n + s.pendingBytes!, 0) };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function runWithOneFailure(checkpointIntervalMs: number | undefined): Promise<{ total: number; state: Failure; job: JobClient; sums: number[] }> {
  const root = mkdtempSync(join(tmpdir(), 'sluice-restore-bytes-'));
  dirs.push(root);
  writeFileSync(join(root, 'a.json'), lines(1, 4000));
  writeFileSync(join(root, 'b.json'), lines(4001, 6000));
  const total = statSync(join(root, 'a.json')).size + statSync(join(root, 'b.json')).size;
  const state: Failure = { seen: 0, failed: false, checkpointedAt: undefined, bytesAtFailure: 0 };
  let job: JobClient;
  job = executeJob(
    {
      jobName: 'restore-bytes',
      vertices: [
        { kind: 'source', id: 'src', name: 'files', parallelism: 2, source: jsonSource(root) },
        { kind: 'operator', id: 'fail', name: 'fail-once', parallelism: 2, operators: [failOnce(state, 300, checkpointIntervalMs !== undefined, () => sourceBytes(job).done)] },
        { kind: 'sink', id: 'snk', name: 'slow', parallelism: 2, sink: new SlowSink() },
      ],
      edges: [
        { from: 'src', to: 'fail', partitioner: { kind: 'forward' } },
        { from: 'fail', to: 'snk', partitioner: { kind: 'forward' } },
      ],
    },
    defaultRuntimeConfig({ checkpointIntervalMs, restartStrategy: { kind: 'fixed-delay', attempts: 1, delayMs: 0 } }),
  );
  const sums: number[] = [];
  while (job.status() === 'RUNNING' || job.status() === 'CREATED') {
    const b = sourceBytes(job);
    if (b.left !== undefined) sums.push(b.done + b.left);
    await new Promise((r) => setTimeout(r, 3));
  }
  const result = await job.waitForCompletion();
  expect(result.status).toBe('FINISHED');
  expect(result.restarts).toBe(1);
  return { total, state, job, sums };
}

describe("a file source's numBytesIn across a restart", () => {
  it('goes on from its count at the restored checkpoint: bytes read again count once', async () => {
    const { total, state, job, sums } = await runWithOneFailure(20);
    // The failure struck past a checkpoint, with bytes read after it that the restore reads again.
    expect(state.checkpointedAt).toBeGreaterThan(0);
    expect(state.bytesAtFailure).toBeGreaterThan(0);
    expect(sourceBytes(job).done).toBe(total);
    for (const s of sums) expect(s).toBeLessThanOrEqual(total);
  });

  it('starts again from 0 on a restart without a checkpoint, as the source reads everything again', async () => {
    const { total, state, job, sums } = await runWithOneFailure(undefined);
    expect(state.bytesAtFailure).toBeGreaterThan(0);
    expect(sourceBytes(job).done).toBe(total);
    for (const s of sums) expect(s).toBeLessThanOrEqual(total);
  });
});
