import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSource } from '../../../src/connectors/filesystem/file-source.js';
import { ArrowBulkDecoder } from '../../../src/formats/arrow/arrow-bulk-decoder.js';
import { ArrowBulkEncoder } from '../../../src/formats/arrow/arrow-bulk-encoder.js';
import { defaultRuntimeConfig, executeJob, type Sink, type SinkWriter } from '../../../src/runtime/index.js';
import type { ColumnBatch } from '../../../src/types/columns/column-batch.js';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { Row } from '../../../src/types/row.js';
import { insert } from '../../formats/fixtures.js';
import { pipe, runToEnd } from '../datagen/context.js';

const TYPE = DataTypes.ROW(FIELD('id', DataTypes.BIGINT()), FIELD('s', DataTypes.STRING()), FIELD('t', DataTypes.TIMESTAMP(3)));

/** A sink taking columns: keeps each batch's rows and counts how batches arrived. */
class ColumnarSink implements Sink<Row> {
  readonly rows: Row[] = [];
  columnBatches = 0;
  rowBatches = 0;
  constructor(private readonly delayMs = 0) {}
  createWriter(): SinkWriter<Row> {
    const pause = (): Promise<void> | undefined => (this.delayMs > 0 ? new Promise((r) => setTimeout(r, this.delayMs)) : undefined);
    return {
      write: (b) => {
        this.rowBatches++;
        this.rows.push(...b);
        return pause();
      },
      writeColumns: (b: ColumnBatch) => {
        this.columnBatches++;
        this.rows.push(...b.toRows());
        return pause();
      },
      flush: async () => {},
      close: async () => {},
    };
  }
}

function source(root: string): FileSource {
  return new FileSource({
    root,
    partitionKeys: ['p'],
    pathRegex: undefined,
    monitorIntervalMs: undefined,
    format: { kind: 'bulk', decoder: () => new ArrowBulkDecoder(TYPE) },
    fields: [
      { kind: 'metadata', key: 'file.name' },
      { kind: 'file', index: 1 },
      { kind: 'partition', index: 0, convert: (t) => Number(t) },
      { kind: 'file', index: 0 },
      { kind: 'file', index: 2 },
    ],
  });
}

function arrowFile(from: number, to: number, batchSize: number): Uint8Array {
  const rows = Array.from({ length: to - from + 1 }, (_, i) => insert([BigInt(from + i), (from + i) % 5 === 0 ? null : `s${from + i}`, 1_600_000_000_000 + from + i]));
  return new ArrowBulkEncoder(TYPE, { ipcFormat: 'file', batchSize }).encode(rows);
}

function write(root: string, p: number, name: string, data: Uint8Array): void {
  mkdirSync(join(root, `p=${p}`), { recursive: true });
  writeFileSync(join(root, `p=${p}`, name), data);
}

const expectedRow = (id: number, p: number, name: string): unknown[] => [name, id % 5 === 0 ? null : `s${id}`, p, BigInt(id), 1_600_000_000_000 + id];

describe('filesystem source handing arrow batches on as columns', () => {
  it('a sink that takes columns gets every batch as columns, with partition and metadata columns filled in', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-fsc-'));
    try {
      write(root, 1, 'a.arrow', arrowFile(1, 3000, 1000));
      write(root, 2, 'b.arrow', arrowFile(3001, 3500, 200));
      const sink = new ColumnarSink();
      await runToEnd(pipe(source(root), sink, 1, 1));
      expect(sink.rowBatches).toBe(0);
      expect(sink.columnBatches).toBe(3 + 3);
      const byId = [...sink.rows].sort((a, b) => Number(a.fields[3] as bigint) - Number(b.fields[3] as bigint));
      expect(byId.map((r) => r.fields)).toEqual(
        Array.from({ length: 3500 }, (_, i) => (i < 3000 ? expectedRow(i + 1, 1, 'a.arrow') : expectedRow(i + 1, 2, 'b.arrow'))),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('across a task boundary (rebalance to 2 sink subtasks) the rows are built once, all of them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-fsc-'));
    try {
      write(root, 7, 'a.arrow', arrowFile(1, 2000, 500));
      const sink = new ColumnarSink();
      await runToEnd(pipe(source(root), sink, 1, 2));
      expect(sink.columnBatches).toBe(0);
      expect(sink.rows.map((r) => Number(r.fields[3] as bigint)).sort((a, b) => a - b)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a restored job continues after the checkpointed row count, still as columns, nothing twice', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-fsc-'));
    const sp = mkdtempSync(join(tmpdir(), 'sluice-fsc-sp-'));
    try {
      write(root, 1, 'a.arrow', arrowFile(1, 8000, 700));
      const first = new ColumnarSink(15);
      const client = executeJob(pipe(source(root), first, 1, 1), defaultRuntimeConfig({ checkpointDir: sp }));
      for (let i = 0; i < 500 && first.rows.length < 1500; i++) await new Promise((r) => setTimeout(r, 2));
      const savepoint = await client.stopWithSavepoint(sp);
      expect(first.rows.length).toBeGreaterThan(0);
      expect(first.rows.length).toBeLessThan(8000);
      const second = new ColumnarSink();
      await runToEnd(pipe(source(root), second, 1, 1), { restorePath: savepoint });
      // Checkpoints fall between batches, so the restore skips whole batches and stays columnar.
      expect(second.columnBatches).toBeGreaterThan(0);
      expect(second.rowBatches).toBe(0);
      const ids = [...first.rows, ...second.rows].map((r) => Number(r.fields[3] as bigint)).sort((a, b) => a - b);
      expect(ids).toEqual(Array.from({ length: 8000 }, (_, i) => i + 1));
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(sp, { recursive: true, force: true });
    }
  });
});
