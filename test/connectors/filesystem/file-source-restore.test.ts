import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSource } from '../../../src/connectors/filesystem/file-source.js';
import { extractPartitionTime } from '../../../src/connectors/filesystem/filesystem-table-factory.js';
import { CsvFormatFactory } from '../../../src/formats/index.js';
import { Configuration } from '../../../src/config/configuration.js';
import { defaultRuntimeConfig, executeJob, type Sink, type SinkWriter } from '../../../src/runtime/index.js';
import { DataTypes } from '../../../src/types/data-types.js';
import type { Row } from '../../../src/types/row.js';
import { pipe, runToEnd, tableContext } from '../datagen/context.js';

/** Keeps rows; every batch takes a few ms, so the source is backpressured and a savepoint lands mid-file. */
class SlowSink implements Sink<Row> {
  readonly rows: Row[] = [];
  createWriter(): SinkWriter<Row> {
    return {
      write: async (b) => {
        this.rows.push(...b);
        await new Promise((r) => setTimeout(r, 3));
      },
      flush: async () => {},
      close: async () => {},
    };
  }
}

function fileSource(root: string): FileSource {
  const type = { kind: 'ROW' as const, fields: [{ name: 'id', type: DataTypes.INT() }, { name: 's', type: DataTypes.STRING() }], nullable: false };
  const format = new CsvFormatFactory().createDecodingFormat(tableContext([], {}), new Configuration());
  return new FileSource({
    root,
    partitionKeys: [],
    pathRegex: undefined,
    monitorIntervalMs: undefined,
    format: { kind: 'lines', decoder: () => format.createRuntimeDecoder(type) },
    fields: [{ kind: 'file', index: 0 }],
    chunkSize: 333,
  });
}

describe('filesystem source checkpoints', () => {
  it('a restored job continues each file at its checkpointed line offset', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-fsr-'));
    const sp = mkdtempSync(join(tmpdir(), 'sluice-fsr-sp-'));
    try {
      const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${from + i},${'v'.repeat((from + i) % 7)}`).join('\n');
      writeFileSync(join(root, 'a.csv'), lines(1, 3000) + '\n');
      writeFileSync(join(root, 'b.csv'), lines(3001, 5000)); // no trailing newline
      const first = new SlowSink();
      const client = executeJob(pipe(fileSource(root), first, 2, 1), defaultRuntimeConfig({ checkpointDir: sp }));
      for (let i = 0; i < 500 && first.rows.length < 200; i++) await new Promise((r) => setTimeout(r, 2));
      const savepoint = await client.stopWithSavepoint(sp);
      expect(first.rows.length).toBeGreaterThan(0);
      expect(first.rows.length).toBeLessThan(5000);
      const second = new SlowSink();
      await runToEnd(pipe(fileSource(root), second, 2, 1), { restorePath: savepoint });
      const ids = [...first.rows, ...second.rows].map((r) => r.fields[0] as number).sort((a, b) => a - b);
      expect(ids).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(sp, { recursive: true, force: true });
    }
  });
});

describe('partition time extraction', () => {
  it('reads the first partition value or the timestamp pattern; unreadable never commits', () => {
    expect(extractPartitionTime(['2024-03-01'], ['dt'], undefined)).toBe(Date.UTC(2024, 2, 1));
    expect(extractPartitionTime(['2024-03-01', '07'], ['dt', 'hour'], '$dt $hour:00:00')).toBe(Date.UTC(2024, 2, 1, 7));
    expect(extractPartitionTime(['x'], ['dt'], undefined)).toBe(Infinity);
  });
});
