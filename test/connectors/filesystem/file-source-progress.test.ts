import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSource } from '../../../src/connectors/filesystem/file-source.js';
import { bytesLeft, lineBytesBetween } from '../../../src/connectors/filesystem/file-progress.js';
import type { FileSplit } from '../../../src/connectors/filesystem/file-source.js';
import { JsonFormatFactory } from '../../../src/formats/index.js';
import { Configuration } from '../../../src/config/configuration.js';
import { defaultRuntimeConfig, executeJob, type Sink, type SinkWriter } from '../../../src/runtime/index.js';
import type { JobClient } from '../../../src/runtime/job-client.js';
import { DataTypes } from '../../../src/types/data-types.js';
import type { Row } from '../../../src/types/row.js';
import { pipe, tableContext } from '../datagen/context.js';

/** A sink that waits a little per batch, so the job runs long enough to be watched. */
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
    chunkSize: 500,
    // Ranges of 8 KB: a range's last line runs past its end, which must not be counted twice.
    split: { maxBytes: 8 * 1024, minBytes: 1 },
  });
}

function lines(from: number, to: number): string {
  let out = '';
  for (let i = from; i <= to; i++) out += `{"id":${i},"s":"${'x'.repeat(i % 13)}é"}\n`;
  return out;
}

/** The source vertex's bytes consumed and left, as monitoring reads them (left undefined while unknown). */
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

describe("a bounded filesystem source's progress in bytes (pendingBytes, numBytesIn)", () => {
  it('counts every byte of its files once, over ranges and readers, and what is left falls as it reads', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-fsprogress-'));
    dirs.push(root);
    writeFileSync(join(root, 'big.json'), lines(1, 3000));
    writeFileSync(join(root, 'small.json'), lines(3001, 3020));
    const total = statSync(join(root, 'big.json')).size + statSync(join(root, 'small.json')).size;
    const sink = new SlowSink();
    const job = executeJob(pipe(jsonSource(root), sink, 2), defaultRuntimeConfig());
    const seen: { done: number; left: number }[] = [];
    while (job.status() === 'RUNNING' || job.status() === 'CREATED') {
      const b = sourceBytes(job);
      if (b.left !== undefined) seen.push({ done: b.done, left: b.left });
      await new Promise((r) => setTimeout(r, 3));
    }
    expect((await job.waitForCompletion()).status).toBe('FINISHED');
    expect(sink.rows).toBe(3020);
    // Seen mid-way; never more than the files hold (a split on its way to a reader is briefly in neither).
    expect(seen.some((s) => s.done > 0 && s.left > 0)).toBe(true);
    for (const s of seen) expect(s.done + s.left).toBeLessThanOrEqual(total);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.done).toBeGreaterThanOrEqual(seen[i - 1]!.done);
    const end = sourceBytes(job);
    expect(end.done).toBe(total);
    expect(job.metrics().vertices[0]!.subtasks!.map((s) => s.pendingBytes)).toEqual([0, 0]);
  });

  it('counts a line range only within its bounds, and a bulk file all at once', () => {
    const range: FileSplit = { splitId: 'f:100-200', path: 'f', offset: 100, size: 300, start: 100, end: 200, modificationTime: 0, partition: [] };
    expect(bytesLeft(range, 100, false)).toBe(100);
    // The skip to the first line start counts; the last line's bytes past the end belong to the next range.
    expect(lineBytesBetween(range, 100, 130)).toBe(30);
    expect(lineBytesBetween(range, 130, 240)).toBe(70);
    expect(bytesLeft(range, 240, false)).toBe(0);
    const file: FileSplit = { splitId: 'g', path: 'g', offset: 0, size: 50, modificationTime: 0, partition: [] };
    expect(bytesLeft(file, 20, false)).toBe(30);
    // A bulk split's offset counts rows: its bytes are all left until it ends.
    expect(bytesLeft(file, 20, true)).toBe(50);
  });
});
