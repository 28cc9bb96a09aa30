import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSource } from '../../../src/connectors/filesystem/file-source.js';
import { ArrowBulkDecoder } from '../../../src/formats/arrow/arrow-bulk-decoder.js';
import { ArrowBulkEncoder } from '../../../src/formats/arrow/arrow-bulk-encoder.js';
import { defaultRuntimeConfig, executeJob, type Sink, type SinkWriter } from '../../../src/runtime/index.js';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { Row } from '../../../src/types/row.js';
import { insert } from '../../formats/fixtures.js';
import { pipe, runToEnd } from '../datagen/context.js';

const TYPE = DataTypes.ROW(FIELD('id', DataTypes.INT()), FIELD('s', DataTypes.STRING()));

/** Keeps rows and the size of each written batch; every write is slow, so a savepoint lands mid-file. */
class SlowSink implements Sink<Row> {
  readonly rows: Row[] = [];
  readonly batchSizes: number[] = [];
  constructor(private readonly delayMs: number) {}
  createWriter(): SinkWriter<Row> {
    return {
      write: async (b) => {
        this.rows.push(...b);
        this.batchSizes.push(b.length);
        await new Promise((r) => setTimeout(r, this.delayMs));
      },
      flush: async () => {},
      close: async () => {},
    };
  }
}

function arrowSource(root: string): FileSource {
  return new FileSource({
    root,
    partitionKeys: [],
    pathRegex: undefined,
    monitorIntervalMs: undefined,
    format: { kind: 'bulk', decoder: () => new ArrowBulkDecoder(TYPE) },
    fields: [
      { kind: 'file', index: 0 },
      { kind: 'metadata', key: 'file.name' },
    ],
  });
}

/** Rows `from..to` (inclusive) as an Arrow IPC body in record batches of `batchSize` rows. */
function arrowFile(from: number, to: number, ipcFormat: 'file' | 'stream', batchSize: number): Uint8Array {
  const rows = Array.from({ length: to - from + 1 }, (_, i) => insert([from + i, 'v'.repeat((from + i) % 7)]));
  return new ArrowBulkEncoder(TYPE, { ipcFormat, batchSize }).encode(rows);
}

describe('filesystem source reading arrow files', () => {
  it('emits an arrow file in decoded batches of at most 1024 rows, each row once with its file metadata', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-fsa-'));
    try {
      writeFileSync(join(root, 'a.arrow'), arrowFile(1, 2500, 'file', 2500));
      const sink = new SlowSink(0);
      await runToEnd(pipe(arrowSource(root), sink, 1, 1));
      expect(sink.rows.map((r) => r.fields[0])).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
      expect(sink.rows.every((r) => r.fields[1] === 'a.arrow')).toBe(true);
      expect(Math.max(...sink.batchSizes)).toBeLessThanOrEqual(1024);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a restored job continues each arrow file after its checkpointed row count, without gaps or repeats', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-fsa-'));
    const sp = mkdtempSync(join(tmpdir(), 'sluice-fsa-sp-'));
    try {
      // Record batches of 700 and 3000 rows: the decoder's 1024-row slices and the format's batches both matter.
      writeFileSync(join(root, 'a.arrow'), arrowFile(1, 12000, 'file', 700));
      writeFileSync(join(root, 'b.arrows'), arrowFile(12001, 24000, 'stream', 3000));
      const first = new SlowSink(20);
      const client = executeJob(pipe(arrowSource(root), first, 2, 1), defaultRuntimeConfig({ checkpointDir: sp }));
      for (let i = 0; i < 500 && first.rows.length < 1500; i++) await new Promise((r) => setTimeout(r, 2));
      const savepoint = await client.stopWithSavepoint(sp);
      const firstIds = new Set(first.rows.map((r) => r.fields[0] as number));
      // The savepoint must cut both files part way, or the restore would not skip anything.
      expect([...firstIds].some((id) => id <= 12000)).toBe(true);
      expect([...firstIds].some((id) => id > 12000)).toBe(true);
      expect(firstIds.has(12000)).toBe(false);
      expect(firstIds.has(24000)).toBe(false);
      const second = new SlowSink(0);
      await runToEnd(pipe(arrowSource(root), second, 2, 1), { restorePath: savepoint });
      expect(second.rows.some((r) => r.fields[0] === 1 || r.fields[0] === 12001)).toBe(false);
      const ids = [...first.rows, ...second.rows].map((r) => r.fields[0] as number).sort((a, b) => a - b);
      expect(ids).toEqual(Array.from({ length: 24000 }, (_, i) => i + 1));
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(sp, { recursive: true, force: true });
    }
  });
});
