import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataGenTableSourceFactory } from '../../../src/connectors/datagen/datagen-table-source-factory.js';
import type { ScanTableSource } from '../../../src/factories/dynamic-table-source.js';
import { defaultRuntimeConfig, executeJob } from '../../../src/runtime/index.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import { MemorySink, pipe, runToEnd, tableContext } from './context.js';

const factory = new DataGenTableSourceFactory();

function create(columns: ReadonlyArray<readonly [string, LogicalType]>, options: Record<string, string>): ScanTableSource {
  return factory.createDynamicTableSource(tableContext(columns, { connector: 'datagen', ...options })) as ScanTableSource;
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

describe('datagen options', () => {
  it('reports an option that does not apply to the field kind as unsupported, listing the concrete keys', () => {
    const msg = errorOf(() => create([['id', DataTypes.INT()]], { 'fields.id.start': '1' }));
    expect(msg).toContain("Unsupported options found for 'datagen'.");
    expect(msg).toContain('Unsupported options:\n\nfields.id.start');
    expect(msg).toContain('fields.id.kind');
    expect(msg).toContain('fields.id.min');
    expect(msg).toContain('rows-per-second');
  });

  it('catches a typo in a table option', () => {
    expect(errorOf(() => create([['id', DataTypes.INT()]], { 'records-per-second': '5' }))).toMatch(/Unsupported options:\n\nrecords-per-second/);
  });

  it('rejects an unknown generator kind with Flink message', () => {
    expect(errorOf(() => create([['id', DataTypes.INT()]], { 'fields.id.kind': 'zipf' }))).toBe('Unsupported generator kind: zipf');
  });

  it('requires start and end of a sequence', () => {
    expect(errorOf(() => create([['id', DataTypes.INT()]], { 'fields.id.kind': 'sequence', 'fields.id.end': '9' }))).toBe(
      "Could not find required property 'fields.id.start' for sequence generator.",
    );
  });

  it('checks length and var-len against the column type', () => {
    expect(errorOf(() => create([['c', DataTypes.CHAR(3)]], { 'fields.c.length': '2' }))).toBe(
      "Custom length for fixed-length type (CHAR/BINARY) field 'c' is not supported.",
    );
    expect(errorOf(() => create([['s', DataTypes.VARCHAR(5)]], { 'fields.s.length': '10' }))).toBe(
      "Custom length '10' for variable-length type (VARCHAR/STRING/VARBINARY/BYTES) field 's' should be shorter than '5' defined in the schema.",
    );
    expect(errorOf(() => create([['i', DataTypes.INT()]], { 'fields.i.var-len': 'true' }))).toMatch(/Only supports specifying 'fields.#.var-len' option for variable-length types/);
  });

  it('rejects a bad value and a reversed range', () => {
    expect(errorOf(() => create([['i', DataTypes.INT()]], { 'fields.i.min': 'ten' }))).toMatch(/fields\.i\.min.*ten/);
    expect(errorOf(() => create([['i', DataTypes.INT()]], { 'fields.i.min': '5', 'fields.i.max': '1' }))).toMatch(/must not be greater/);
    expect(errorOf(() => create([['i', DataTypes.INT()]], { 'rows-per-second': 'fast' }))).toMatch(/rows-per-second/);
  });

  it('rejects types datagen cannot generate', () => {
    expect(errorOf(() => create([['iv', { kind: 'INTERVAL_YEAR_MONTH', resolution: 'YEAR', yearPrecision: 2, nullable: true }]], {}))).toMatch(
      /^Unsupported type: INTERVAL YEAR/,
    );
  });

  it('a sequence field makes the table bounded; number-of-rows too; otherwise unbounded', () => {
    expect(create([['i', DataTypes.INT()]], { 'fields.i.kind': 'sequence', 'fields.i.start': '1', 'fields.i.end': '5' }).getScanRuntimeProvider({ batchMode: false }).bounded).toBe(true);
    expect(create([['i', DataTypes.INT()]], { 'number-of-rows': '5' }).getScanRuntimeProvider({ batchMode: true }).bounded).toBe(true);
    const unbounded = create([['i', DataTypes.INT()]], {});
    expect(unbounded.getScanRuntimeProvider({ batchMode: false }).bounded).toBe(false);
    expect(unbounded.getScanRuntimeProvider({ batchMode: false }).source.boundedness()).toBe('CONTINUOUS_UNBOUNDED');
    expect(() => unbounded.getScanRuntimeProvider({ batchMode: true })).toThrow("Querying an unbounded table 'default_catalog.default_database.t' in batch mode");
  });
});

describe('datagen rows', () => {
  it('emits the sequence exactly once over parallel readers, other fields within their ranges', async () => {
    const src = create(
      [
        ['id', DataTypes.BIGINT()],
        ['n', DataTypes.INT()],
        ['s', DataTypes.STRING()],
        ['d', DataTypes.DECIMAL(5, 2)],
        ['ts', DataTypes.TIMESTAMP(3)],
        ['arr', DataTypes.ARRAY(DataTypes.SMALLINT())],
      ],
      {
        'rows-per-second': '1000000',
        'fields.id.kind': 'sequence',
        'fields.id.start': '10',
        'fields.id.end': '2009',
        'fields.n.min': '-3',
        'fields.n.max': '3',
        'fields.s.length': '7',
        'fields.d.min': '1.5',
        'fields.d.max': '2.5',
        'fields.ts.max-past': '1 h',
        'fields.arr.length': '2',
      },
    );
    const sink = new MemorySink();
    const before = Date.now();
    await runToEnd(pipe(src.getScanRuntimeProvider({ batchMode: false }).source, sink, 3, 1));
    const ids = sink.rows.map((r) => r.fields[0] as bigint).sort((a, b) => (a < b ? -1 : 1));
    expect(ids).toEqual(Array.from({ length: 2000 }, (_, i) => BigInt(10 + i)));
    for (const r of sink.rows) {
      const [, n, s, d, ts, arr] = r.fields as [bigint, number, string, Decimal, number, number[]];
      expect(n).toBeGreaterThanOrEqual(-3);
      expect(n).toBeLessThanOrEqual(3);
      expect(s).toMatch(/^[0-9a-f]{7}$/);
      expect(d).toBeInstanceOf(Decimal);
      expect(d.scale).toBe(2);
      expect(d.toNumber()).toBeGreaterThanOrEqual(1.5);
      expect(d.toNumber()).toBeLessThanOrEqual(2.5);
      expect(ts).toBeGreaterThanOrEqual(before - 3_600_000);
      expect(ts).toBeLessThanOrEqual(Date.now());
      expect(arr).toHaveLength(2);
    }
    expect(new Set(sink.rows.map((r) => r.fields[1])).size).toBe(7);
  });

  it('honours number-of-rows, null-rate and var-len', async () => {
    const src = create(
      [
        ['a', DataTypes.INT()],
        ['b', DataTypes.STRING()],
        ['c', DataTypes.BOOLEAN()],
      ],
      { 'number-of-rows': '500', 'rows-per-second': '1000000', 'fields.a.null-rate': '1', 'fields.b.var-len': 'true', 'fields.b.length': '4' },
    );
    // Like Flink's DataGenTableSource, datagen refuses projection push-down: every column is generated.
    expect(src.applyProjection).toBeUndefined();
    const sink = new MemorySink();
    await runToEnd(pipe(src.getScanRuntimeProvider({ batchMode: true }).source, sink), { runtimeMode: 'batch' });
    expect(sink.rows).toHaveLength(500);
    expect(sink.rows.every((r) => r.fields.length === 3 && r.fields[0] === null)).toBe(true);
    const lengths = new Set(sink.rows.map((r) => (r.fields[1] as string).length));
    expect([...lengths].every((l) => l >= 1 && l <= 4)).toBe(true);
    expect(lengths.size).toBeGreaterThan(1);
  });

  it('limits the rate over all readers', async () => {
    const src = create([['i', DataTypes.INT()]], { 'number-of-rows': '60', 'rows-per-second': '200' });
    const sink = new MemorySink();
    const t0 = Date.now();
    await runToEnd(pipe(src.getScanRuntimeProvider({ batchMode: false }).source, sink, 2, 1));
    const elapsed = Date.now() - t0;
    expect(sink.rows).toHaveLength(60);
    // 60 rows at 200/s take ~300 ms; unlimited would take a few ms.
    expect(elapsed).toBeGreaterThanOrEqual(200);
    expect(elapsed).toBeLessThan(3000);
  });

  it('a job restored from a checkpoint continues the sequence without gaps or repeats', async () => {
    const cpDir = mkdtempSync(join(tmpdir(), 'sluice-dg-'));
    try {
      const opts = { 'rows-per-second': '4000', 'fields.id.kind': 'sequence', 'fields.id.start': '1', 'fields.id.end': '1200' };
      const first = new MemorySink();
      const client = executeJob(
        pipe(create([['id', DataTypes.INT()]], opts).getScanRuntimeProvider({ batchMode: false }).source, first, 2, 1),
        defaultRuntimeConfig({ checkpointIntervalMs: 20, checkpointDir: cpDir }),
      );
      // Stop part-way with a savepoint: everything before its barrier went to `first`.
      for (let i = 0; i < 500 && first.rows.length < 100; i++) await new Promise((r) => setTimeout(r, 2));
      const savepoint = await client.stopWithSavepoint(cpDir);
      const seen = first.rows.map((r) => r.fields[0] as number);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.length).toBeLessThan(1200);
      const second = new MemorySink();
      await runToEnd(pipe(create([['id', DataTypes.INT()]], opts).getScanRuntimeProvider({ batchMode: false }).source, second, 2, 1), {
        restorePath: savepoint,
      });
      const all = [...seen, ...second.rows.map((r) => r.fields[0] as number)].sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: 1200 }, (_, i) => i + 1));
    } finally {
      rmSync(cpDir, { recursive: true, force: true });
    }
  });
});
