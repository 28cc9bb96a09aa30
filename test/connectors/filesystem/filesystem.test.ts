import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemTableFactory } from '../../../src/connectors/filesystem/filesystem-table-factory.js';
import { DataGenTableSourceFactory } from '../../../src/connectors/datagen/datagen-table-source-factory.js';
import type { ScanTableSource } from '../../../src/factories/dynamic-table-source.js';
import type { DynamicTableSink } from '../../../src/factories/dynamic-table-sink.js';
import { builtinFormatFactories } from '../../../src/formats/index.js';
import { defaultRuntimeConfig, executeJob, type OperatorFactory } from '../../../src/runtime/index.js';
import { DataTypes } from '../../../src/types/data-types.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import type { Row } from '../../../src/types/row.js';
import { MemorySink, pipe, runToEnd, tableContext } from '../datagen/context.js';

const factory = new FileSystemTableFactory();
const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'sluice-fs-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

type Cols = ReadonlyArray<readonly [string, LogicalType]>;
const ctx = (cols: Cols, options: Record<string, string>, partitionKeys: string[] = []) =>
  tableContext(cols, { connector: 'filesystem', ...options }, builtinFormatFactories, partitionKeys);
const source = (cols: Cols, options: Record<string, string>, partitionKeys: string[] = []) =>
  factory.createDynamicTableSource(ctx(cols, options, partitionKeys)) as ScanTableSource;
const sinkOf = (cols: Cols, options: Record<string, string>, partitionKeys: string[] = []): DynamicTableSink =>
  factory.createDynamicTableSink(ctx(cols, options, partitionKeys));

/** Every line of the visible files below `dir` (recursively). */
function committedLines(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name.startsWith('_')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...committedLines(p));
    else out.push(...readFileSync(p, 'utf8').split('\n').filter((l) => l !== ''));
  }
  return out;
}

function hiddenFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...hiddenFiles(p));
    else if (e.name.startsWith('.')) out.push(p);
  }
  return out;
}

const CSV_COLS: Cols = [
  ['id', DataTypes.INT()],
  ['name', DataTypes.STRING()],
  ['dt', DataTypes.DATE()],
];

describe('filesystem source', () => {
  it('reads csv partitions with partition values, projection and file metadata, skipping hidden files', async () => {
    const root = tmp();
    mkdirSync(join(root, 'dt=2024-01-01'));
    mkdirSync(join(root, 'dt=2024-01-02'));
    writeFileSync(join(root, 'dt=2024-01-01', 'a.csv'), '1,a\n2,b\n');
    writeFileSync(join(root, 'dt=2024-01-02', 'b.csv'), '3,c\r\n4,d');
    writeFileSync(join(root, 'dt=2024-01-02', '.b.csv.inprogress'), '99,x\n');
    writeFileSync(join(root, 'dt=2024-01-02', '_SUCCESS'), '');
    const src = source(CSV_COLS, { path: root, format: 'csv' }, ['dt']);
    src.applyProjection!([2, 0], { kind: 'ROW', fields: [], nullable: false });
    src.applyReadableMetadata!(['file.name'], { kind: 'ROW', fields: [], nullable: false });
    const sink = new MemorySink();
    await runToEnd(pipe(src.getScanRuntimeProvider({ batchMode: true }).source, sink, 2, 1), { runtimeMode: 'batch' });
    const got = sink.rows.map((r) => r.fields).sort((a, b) => (a[1] as number) - (b[1] as number));
    const d1 = Date.UTC(2024, 0, 1) / 86_400_000;
    expect(got).toEqual([
      [d1, 1, 'a.csv'],
      [d1, 2, 'a.csv'],
      [d1 + 1, 3, 'b.csv'],
      [d1 + 1, 4, 'b.csv'],
    ]);
  });

  it('reads json lines and filters paths by source.path.regex-pattern', async () => {
    const root = tmp();
    writeFileSync(join(root, 'keep.json'), '{"id":1,"name":"x"}\n\n{"id":2,"name":"y"}\n');
    writeFileSync(join(root, 'skip.txt'), '{"id":3,"name":"z"}\n');
    const cols: Cols = [
      ['id', DataTypes.BIGINT()],
      ['name', DataTypes.STRING()],
    ];
    const src = source(cols, { path: root, format: 'json', 'source.path.regex-pattern': '.*\\.json' });
    const sink = new MemorySink();
    await runToEnd(pipe(src.getScanRuntimeProvider({ batchMode: false }).source, sink));
    expect(sink.rows.map((r) => r.fields)).toEqual([
      [1n, 'x'],
      [2n, 'y'],
    ]);
  });

  it("reads and writes a 'path' given as Flink writes it, a file:/// URI, and refuses another file system", async () => {
    const root = tmp();
    writeFileSync(join(root, 'in.csv'), '1,x\n2,y\n');
    const cols: Cols = [
      ['id', DataTypes.BIGINT()],
      ['name', DataTypes.STRING()],
    ];
    const out = join(root, 'out dir');
    const sink = sinkOf(cols, { path: pathToFileURL(out).href, format: 'csv' });
    const src = source(cols, { path: pathToFileURL(join(root, 'in.csv')).href, format: 'csv' });
    await runToEnd(pipe(src.getScanRuntimeProvider({ batchMode: true }).source, sink.getSinkRuntimeProvider({ bounded: true }).sink), { runtimeMode: 'batch' });
    expect(committedLines(out).sort()).toEqual(['1,x', '2,y']);
    expect(() => source(cols, { path: 's3://bucket/in', format: 'csv' })).toThrow("Invalid value for option 'path': 's3://bucket/in'");
  });

  it('with source.monitor-interval keeps discovering and picks up a new file', async () => {
    const root = tmp();
    writeFileSync(join(root, 'a.csv'), '1,a\n');
    const cols: Cols = [
      ['id', DataTypes.INT()],
      ['name', DataTypes.STRING()],
    ];
    const provider = source(cols, { path: root, format: 'csv', 'source.monitor-interval': '30 ms' }).getScanRuntimeProvider({ batchMode: false });
    expect(provider.bounded).toBe(false);
    const sink = new MemorySink();
    const client = executeJob(pipe(provider.source, sink), defaultRuntimeConfig());
    const until = async (n: number): Promise<void> => {
      for (let i = 0; i < 200 && sink.rows.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    };
    await until(1);
    writeFileSync(join(root, 'b.csv'), '2,b\n3,c\n');
    await until(3);
    await client.cancel();
    expect(sink.rows.map((r) => r.fields[0]).sort()).toEqual([1, 2, 3]);
  });

  it('validates options with Flink messages', () => {
    expect(() => source(CSV_COLS, { format: 'csv' })).toThrow(/Missing required options are:\n\npath/);
    expect(() => source(CSV_COLS, { path: '/x', format: 'csv', 'sink.rolling-policy.file-sizee': '1' })).toThrow(/Unsupported options found for 'filesystem'/);
    expect(() => sinkOf(CSV_COLS, { path: '/x', format: 'csv', 'auto-compaction': 'true' })).toThrow(/auto-compaction/);
    expect(() => source(CSV_COLS, { path: '/x', format: 'csv', 'csv.field-delimiter': ';' })).not.toThrow();
  });
});

function seqSource(n: number, rate: number): ScanTableSource {
  return new DataGenTableSourceFactory().createDynamicTableSource(
    tableContext([['id', DataTypes.INT()], ['name', DataTypes.STRING()]], {
      connector: 'datagen',
      'rows-per-second': String(rate),
      'fields.id.kind': 'sequence',
      'fields.id.start': '1',
      'fields.id.end': String(n),
      'fields.name.length': '3',
    }),
  ) as ScanTableSource;
}

function chaos(state: { seen: number; failAfter: number; failed: boolean }): OperatorFactory {
  return {
    name: 'chaos',
    create() {
      let emit: (r: Row[]) => void = () => {};
      return {
        open(c) {
          emit = (r) => c.output.collect(r);
        },
        processBatch(rows) {
          state.seen += rows.length;
          if (!state.failed && state.seen >= state.failAfter) {
            state.failed = true;
            throw new Error('injected failure');
          }
          emit(rows);
        },
      };
    },
  };
}

describe('filesystem sink', () => {
  it('commits every row exactly once across a failure and restore, nothing partial visible', async () => {
    const root = tmp();
    const cpDir = tmp();
    const N = 1500;
    const sink = sinkOf([['id', DataTypes.INT()], ['name', DataTypes.STRING()]], { path: root, format: 'csv' }).getSinkRuntimeProvider({ bounded: true }).sink;
    const state = { seen: 0, failAfter: 700, failed: false };
    const client = executeJob(
      {
        jobName: 'fs-eo',
        vertices: [
          { kind: 'source', id: 'src', name: 'seq', parallelism: 2, source: seqSource(N, 6000).getScanRuntimeProvider({ batchMode: false }).source, operators: [chaos(state)] },
          { kind: 'sink', id: 'snk', name: 'files', parallelism: 2, sink },
        ],
        edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'rebalance' } }],
      },
      defaultRuntimeConfig({ checkpointIntervalMs: 25, checkpointDir: cpDir, restartStrategy: { kind: 'fixed-delay', attempts: 2, delayMs: 0 } }),
    );
    const res = await client.waitForCompletion();
    expect(res.restarts).toBe(1);
    const ids = committedLines(root).map((l) => Number(l.split(',')[0])).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    expect(readdirSync(root).filter((f) => !f.startsWith('.')).every((f) => /^part-[0-9a-f-]{36}-\d-\d+$/.test(f))).toBe(true);
    // The failed attempt's in-progress files were removed on restore; everything else was committed.
    expect(hiddenFiles(root)).toEqual([]);
  });

  it('writes partition folders and success files, rolling by size', async () => {
    const root = tmp();
    const cols: Cols = [
      ['id', DataTypes.INT()],
      ['name', DataTypes.STRING()],
      ['p', DataTypes.STRING()],
    ];
    const sink = sinkOf(cols, { path: root, format: 'csv', 'sink.partition-commit.policy.kind': 'success-file', 'sink.rolling-policy.file-size': '1kb' }, ['p']);
    const src = seqSource(400, 1e7);
    const parts: OperatorFactory = {
      name: 'part',
      create() {
        let emit: (r: Row[]) => void = () => {};
        return {
          open(c) {
            emit = (r) => c.output.collect(r);
          },
          processBatch(rows) {
            emit(rows.map((r) => ({ kind: r.kind, fields: [...r.fields, (r.fields[0] as number) % 2 === 0 ? 'even' : null] }) as Row));
          },
        };
      },
    };
    await runToEnd(
      {
        jobName: 'fs-part',
        vertices: [
          { kind: 'source', id: 'src', name: 'seq', parallelism: 1, source: src.getScanRuntimeProvider({ batchMode: true }).source, operators: [parts] },
          { kind: 'sink', id: 'snk', name: 'files', parallelism: 1, sink: sink.getSinkRuntimeProvider({ bounded: true }).sink },
        ],
        edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'forward' } }],
      },
      { runtimeMode: 'batch' },
    );
    expect(readdirSync(root).sort()).toEqual(['p=__DEFAULT_PARTITION__', 'p=even']);
    expect(existsSync(join(root, 'p=even', '_SUCCESS'))).toBe(true);
    expect(existsSync(join(root, 'p=__DEFAULT_PARTITION__', '_SUCCESS'))).toBe(true);
    const even = committedLines(join(root, 'p=even')).map((l) => Number(l.split(',')[0]));
    expect(even).toHaveLength(200);
    expect(even.every((n) => n % 2 === 0)).toBe(true);
    expect(readdirSync(join(root, 'p=even')).filter((f) => f.startsWith('part-')).length).toBeGreaterThan(1);
    expect(hiddenFiles(root)).toEqual([]);
    // Reading the table back yields the partition column from the folders (default name = NULL).
    const back = new MemorySink();
    await runToEnd(pipe(source(cols, { path: root, format: 'csv' }, ['p']).getScanRuntimeProvider({ batchMode: true }).source, back), { runtimeMode: 'batch' });
    expect(back.rows).toHaveLength(400);
    expect(back.rows.filter((r) => r.fields[2] === null)).toHaveLength(200);
  });

  it('INSERT OVERWRITE in batch mode replaces the table contents at commit; streaming refuses it', async () => {
    const root = tmp();
    writeFileSync(join(root, 'old-file'), '999,old\n');
    const cols: Cols = [
      ['id', DataTypes.INT()],
      ['name', DataTypes.STRING()],
    ];
    const sink = sinkOf(cols, { path: root, format: 'csv' });
    sink.applyOverwrite!(true);
    expect(() => sink.getSinkRuntimeProvider({ bounded: false })).toThrow(/Streaming mode not support overwrite/);
    await runToEnd(pipe(seqSource(50, 1e7).getScanRuntimeProvider({ batchMode: true }).source, sink.getSinkRuntimeProvider({ bounded: true }).sink), { runtimeMode: 'batch' });
    const ids = committedLines(root).map((l) => Number(l.split(',')[0])).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(existsSync(join(root, 'old-file'))).toBe(false);
  });
});
