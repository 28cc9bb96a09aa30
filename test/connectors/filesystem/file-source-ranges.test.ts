import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSource, type FieldSource } from '../../../src/connectors/filesystem/file-source.js';
import type { SplitSizing } from '../../../src/connectors/filesystem/file-ranges.js';
import { JsonFormatFactory } from '../../../src/formats/index.js';
import { Configuration } from '../../../src/config/configuration.js';
import { defaultRuntimeConfig, executeJob, type Sink, type SinkWriter, type WriterInitContext } from '../../../src/runtime/index.js';
import { DataTypes } from '../../../src/types/data-types.js';
import type { Row } from '../../../src/types/row.js';
import { pipe, runToEnd, tableContext } from '../datagen/context.js';

/** Keeps rows with the subtask that wrote them; optionally slow, so the source is backpressured. */
class SubtaskSink implements Sink<Row> {
  readonly rows: { subtask: number; row: Row }[] = [];
  constructor(private readonly delayMs = 0) {}
  createWriter(ctx: WriterInitContext): SinkWriter<Row> {
    return {
      write: async (b) => {
        for (const row of b) this.rows.push({ subtask: ctx.subtaskIndex, row });
        if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
      },
      flush: async () => {},
      close: async () => {},
    };
  }
}

const TINY: SplitSizing = { maxBytes: 8 * 1024, minBytes: 1 };
const FIELDS: FieldSource[] = [
  { kind: 'file', index: 0 },
  { kind: 'file', index: 1 },
  { kind: 'metadata', key: 'file.name' },
  { kind: 'metadata', key: 'file.size' },
];

function jsonSource(root: string, split: SplitSizing | undefined, monitorIntervalMs?: number): FileSource {
  const type = { kind: 'ROW' as const, fields: [{ name: 'id', type: DataTypes.INT() }, { name: 's', type: DataTypes.STRING() }], nullable: false };
  const format = new JsonFormatFactory().createDecodingFormat(tableContext([], {}), new Configuration());
  return new FileSource({
    root,
    partitionKeys: [],
    pathRegex: undefined,
    monitorIntervalMs,
    format: { kind: 'lines', decoder: () => format.createRuntimeDecoder(type) },
    fields: FIELDS,
    chunkSize: 333,
    ...(split ? { split } : {}),
  });
}

/** Lines of ids `from..to` with multi-byte text, CRLF every 3rd line, an empty line every 7th; no final newline. */
function jsonLines(from: number, to: number): string {
  let out = '';
  for (let i = from; i <= to; i++) {
    out += `{"id":${i},"s":"${'é€🎉'.slice(0, 1 + (i % 4))}${'v'.repeat(i % 11)}"}`;
    if (i < to) out += i % 3 === 0 ? '\r\n' : '\n';
    if (i % 7 === 0 && i < to) out += i % 2 === 0 ? '\n' : '\r\n';
  }
  return out;
}

const ids = (rows: readonly { row: Row }[]): number[] => rows.map((r) => r.row.fields[0] as number).sort((a, b) => a - b);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Waits until `sink` holds `n` rows (the machine may be busy: a generous deadline, left early when met). */
async function untilRows(sink: SubtaskSink, n: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (sink.rows.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
}

const dirs: string[] = [];
function tmp(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('filesystem source byte ranges', () => {
  it('one large file read at parallelism 1 and 4 gives the same rows; at 4 several subtasks share the file', async () => {
    const root = tmp('sluice-fsrange-');
    writeFileSync(join(root, 'big.json'), jsonLines(1, 3000));
    writeFileSync(join(root, 'small.json'), jsonLines(3001, 3010) + '\n');
    const bigSize = BigInt(statSync(join(root, 'big.json')).size);
    const one = new SubtaskSink();
    await runToEnd(pipe(jsonSource(root, undefined), one, 1));
    const four = new SubtaskSink();
    await runToEnd(pipe(jsonSource(root, TINY), four, 4));
    const key = (r: { row: Row }): string => JSON.stringify(r.row.fields, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    expect(four.rows.map(key).sort()).toEqual(one.rows.map(key).sort());
    expect(ids(four.rows)).toEqual(range(1, 3010));
    // Metadata columns stay per file, whatever range a row came from.
    for (const { row } of four.rows) {
      const big = row.fields[2] === 'big.json';
      expect(row.fields[3]).toBe(big ? bigSize : BigInt(statSync(join(root, 'small.json')).size));
    }
    const subtasksOfBig = new Set(four.rows.filter((r) => r.row.fields[2] === 'big.json').map((r) => r.subtask));
    expect(subtasksOfBig.size).toBeGreaterThanOrEqual(3);
  });

  it('a job restored mid-range continues each range after its last emitted line, without gaps or repeats', async () => {
    const root = tmp('sluice-fsrange-r-');
    const sp = tmp('sluice-fsrange-sp-');
    writeFileSync(join(root, 'big.json'), jsonLines(1, 4000));
    const first = new SubtaskSink(3);
    const client = executeJob(pipe(jsonSource(root, TINY), first, 2), defaultRuntimeConfig({ checkpointDir: sp }));
    await untilRows(first, 300);
    const savepoint = await client.stopWithSavepoint(sp);
    expect(first.rows.length).toBeGreaterThan(0);
    expect(first.rows.length).toBeLessThan(4000);
    // Both subtasks were inside a range when the savepoint was taken.
    expect(new Set(first.rows.map((r) => r.subtask)).size).toBe(2);
    const second = new SubtaskSink();
    await runToEnd(pipe(jsonSource(root, TINY), second, 2), { restorePath: savepoint });
    expect(ids([...first.rows, ...second.rows])).toEqual(range(1, 4000));
  });

  it('a monitored directory cuts a new large file into ranges and never reads a file twice', async () => {
    const root = tmp('sluice-fsrange-m-');
    writeFileSync(join(root, 'a.json'), jsonLines(1, 10));
    const sink = new SubtaskSink();
    const client = executeJob(pipe(jsonSource(root, TINY, 20), sink, 3), defaultRuntimeConfig());
    await untilRows(sink, 10);
    writeFileSync(join(root, 'b.json'), jsonLines(11, 2000));
    await untilRows(sink, 2000);
    // A few more discovery rounds must not read either file again.
    await new Promise((r) => setTimeout(r, 120));
    await client.cancel();
    expect(ids(sink.rows)).toEqual(range(1, 2000));
    expect(new Set(sink.rows.filter((r) => r.row.fields[2] === 'b.json').map((r) => r.subtask)).size).toBeGreaterThanOrEqual(2);
  });
});
