import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileSource } from '../../../src/connectors/filesystem/file-source.js';
import { FileSystemTableFactory } from '../../../src/connectors/filesystem/filesystem-table-factory.js';
import type { ScanTableSource } from '../../../src/factories/dynamic-table-source.js';
import { builtinFormatFactories } from '../../../src/formats/index.js';
import type { Sink, SinkWriter, WriterInitContext } from '../../../src/runtime/index.js';
import { DataTypes } from '../../../src/types/data-types.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import type { Row } from '../../../src/types/row.js';
import { pipe, runToEnd, tableContext } from '../datagen/context.js';

type Cols = ReadonlyArray<readonly [string, LogicalType]>;
const COLS: Cols = [
  ['id', DataTypes.INT()],
  ['s', DataTypes.STRING()],
];
const factory = new FileSystemTableFactory();
const fileSourceOf = (options: Record<string, string>, cols: Cols = COLS): FileSource => {
  const t = factory.createDynamicTableSource(tableContext(cols, { connector: 'filesystem', path: '/nowhere', ...options }, builtinFormatFactories)) as ScanTableSource;
  return t.getScanRuntimeProvider({ batchMode: true }).source as unknown as FileSource;
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('which filesystem tables are read as byte ranges', () => {
  it('json, raw and unquoted csv are cut at source.split-max-size; quoted csv, changelog json and arrow are not', () => {
    expect(fileSourceOf({ format: 'json' }).settings.split).toEqual({ maxBytes: 128 * 1024 * 1024, minBytes: 4 * 1024 * 1024 });
    expect(fileSourceOf({ format: 'json', 'source.split-max-size': '64kb' }).settings.split?.maxBytes).toBe(64 * 1024);
    expect(fileSourceOf({ format: 'raw' }, [['line', DataTypes.STRING()]]).settings.split).toBeDefined();
    // A quoted csv field may hold a line break, which a reader starting mid-file cannot recognise.
    expect(fileSourceOf({ format: 'csv' }).settings.split).toBeUndefined();
    expect(fileSourceOf({ format: 'csv', 'csv.disable-quote-character': 'true' }).settings.split).toBeDefined();
    // Ranges are read in parallel; a changelog's rows must keep their order.
    expect(fileSourceOf({ format: 'debezium-json' }).settings.split).toBeUndefined();
    expect(fileSourceOf({ format: 'arrow' }).settings.split).toBeUndefined();
  });

  it('a large json file of a filesystem table is read by several subtasks, every row once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-fs-split-'));
    dirs.push(root);
    const n = 2000;
    writeFileSync(join(root, 'a.json'), Array.from({ length: n }, (_, i) => `{"id":${i},"s":"row ${i} ü"}`).join('\n'));
    const source = fileSourceOf({ format: 'json', path: root, 'source.split-max-size': '8kb' });
    const seen: { subtask: number; id: number }[] = [];
    const sink: Sink<Row> = {
      createWriter: (ctx: WriterInitContext): SinkWriter<Row> => ({
        write: (b) => void seen.push(...b.map((r) => ({ subtask: ctx.subtaskIndex, id: r.fields[0] as number }))),
        flush: async () => {},
        close: async () => {},
      }),
    };
    await runToEnd(pipe(source, sink, 3), { runtimeMode: 'batch' });
    expect(seen.map((r) => r.id).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(new Set(seen.map((r) => r.subtask)).size).toBe(3);
  });
});
