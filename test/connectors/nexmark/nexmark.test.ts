import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXMARK_CONFIG, NexmarkGenerator } from '../../../src/connectors/nexmark/nexmark-generator.js';
import { NexmarkTableSourceFactory } from '../../../src/connectors/nexmark/nexmark-table-source-factory.js';
import { NEXMARK_TABLE_DDL, nexmarkDdl } from '../../../src/connectors/nexmark/nexmark-ddl.js';
import type { ScanTableSource } from '../../../src/factories/dynamic-table-source.js';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { valuesEqual } from '../../../src/types/values/equality.js';
import { MemorySink, pipe, runToEnd, tableContext } from '../datagen/context.js';

const S = DataTypes.STRING();
const B = DataTypes.BIGINT();
const T = DataTypes.TIMESTAMP(3);
const columns = [
  ['event_type', DataTypes.INT()],
  ['person', DataTypes.ROW(FIELD('id', B), FIELD('name', S), FIELD('emailAddress', S), FIELD('creditCard', S), FIELD('city', S), FIELD('state', S), FIELD('dateTime', T), FIELD('extra', S))],
  [
    'auction',
    DataTypes.ROW(FIELD('id', B), FIELD('itemName', S), FIELD('description', S), FIELD('initialBid', B), FIELD('reserve', B), FIELD('dateTime', T), FIELD('expires', T), FIELD('seller', B), FIELD('category', B), FIELD('extra', S)),
  ],
  ['bid', DataTypes.ROW(FIELD('auction', B), FIELD('bidder', B), FIELD('price', B), FIELD('channel', S), FIELD('url', S), FIELD('dateTime', T), FIELD('extra', S))],
] as const;

function source(options: Record<string, string>): ScanTableSource {
  return new NexmarkTableSourceFactory().createDynamicTableSource(tableContext(columns, { connector: 'nexmark', ...options })) as ScanTableSource;
}

describe('nexmark generator', () => {
  it('an event depends only on its number: cached BIGINT ids and reseeding give the same rows in any order', () => {
    const config = { ...DEFAULT_NEXMARK_CONFIG, baseTime: 1_700_000_000_000, seed: 7 };
    const forward = new NexmarkGenerator(config);
    const backward = new NexmarkGenerator(config);
    const n = 20_000;
    const inOrder = Array.from({ length: n }, (_, i) => forward.event(i));
    for (let i = n - 1; i >= 0; i -= 7) {
      const e = backward.event(i);
      expect(valuesEqual(e, inOrder[i]), `event ${i}`).toBe(true);
    }
    // BIGINT fields are bigint (docs/values.md), also when they come from the cache.
    for (const e of inOrder.slice(0, 500)) {
      const row = (e[1] ?? e[2] ?? e[3]) as unknown[];
      const bigintIndexes = e[0] === 0 ? [0] : e[0] === 1 ? [0, 3, 4, 7, 8] : [0, 1, 2];
      for (const i of bigintIndexes) expect(typeof row[i]).toBe('bigint');
    }
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const a = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, seed: 7, baseTime: 1_000 });
    const b = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, seed: 7, baseTime: 1_000 });
    const c = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, seed: 8, baseTime: 1_000 });
    let same = 0;
    for (let n = 0; n < 500; n++) {
      expect(valuesEqual(a.event(n), b.event(n))).toBe(true);
      if (valuesEqual(a.event(n), c.event(n))) same++;
    }
    expect(same).toBeLessThan(50);
    // Random access gives the same event as sequential generation.
    expect(valuesEqual(a.event(123), b.event(123))).toBe(true);
  });

  it('keeps 1:3:46 proportions, ids from 1000, categories 10..14, prices 100..1e8, states and ordered time', () => {
    const g = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, seed: 1, baseTime: 0 });
    const counts = [0, 0, 0];
    let lastTs = -1;
    const states = new Set<string>();
    for (let n = 0; n < 5000; n++) {
      const [type, person, auction, bid] = g.event(n) as [number, unknown[] | null, unknown[] | null, unknown[] | null];
      counts[type]!++;
      if (person) {
        expect(person[0] as bigint).toBeGreaterThanOrEqual(1000n);
        states.add(person[5] as string);
        expect(person[3]).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);
      }
      if (auction) {
        expect(Number(auction[8])).toBeGreaterThanOrEqual(10);
        expect(Number(auction[8])).toBeLessThanOrEqual(14);
        expect(auction[6] as number).toBeGreaterThan(auction[5] as number);
        expect(auction[4] as bigint).toBeGreaterThan(auction[3] as bigint);
      }
      if (bid) {
        expect(bid[2] as bigint).toBeGreaterThanOrEqual(100n);
        expect(bid[2] as bigint).toBeLessThanOrEqual(100_000_000n);
        expect(bid[0] as bigint).toBeGreaterThanOrEqual(1000n);
      }
      const ts = (person ?? auction ?? bid)![person ? 6 : auction ? 5 : 5] as number;
      expect(ts).toBeGreaterThanOrEqual(lastTs);
      lastTs = ts;
    }
    expect(counts).toEqual([100, 300, 4600]);
    expect([...states].every((s) => ['AZ', 'CA', 'ID', 'OR', 'WA', 'WY'].includes(s))).toBe(true);
    // 10 000 events/s: event 4999 is 499 ms after event 0.
    expect(lastTs).toBe(499);
  });
});

describe('nexmark source', () => {
  it('emits events.num events over parallel readers, same rows as the generator, bounded', async () => {
    const src = source({ 'events.num': '3000', seed: '3', 'base-time': '0', 'rate-limited': 'false' });
    const provider = src.getScanRuntimeProvider({ batchMode: true });
    expect(provider.bounded).toBe(true);
    const sink = new MemorySink();
    await runToEnd(pipe(provider.source, sink, 2, 1), { runtimeMode: 'batch' });
    expect(sink.rows).toHaveLength(3000);
    const g = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, seed: 3, baseTime: 0 });
    const expected = new Map<string, unknown[]>();
    for (let n = 0; n < 3000; n++) expected.set(JSON.stringify(g.event(n), (_k, v) => (typeof v === 'bigint' ? v.toString() : v)), []);
    for (const r of sink.rows) expect(expected.has(JSON.stringify(r.fields, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))).toBe(true);
  });

  it('with a projection without person and auction, emits the projected events unchanged and skips the rest', async () => {
    const src = source({ 'events.num': '2000', seed: '5', 'base-time': '0', 'rate-limited': 'false' });
    src.applyProjection!([3, 0], { kind: 'ROW', fields: [], nullable: false });
    const sink = new MemorySink();
    await runToEnd(pipe(src.getScanRuntimeProvider({ batchMode: true }).source, sink, 1, 1), { runtimeMode: 'batch' });
    const g = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, seed: 5, baseTime: 0 });
    const expected = Array.from({ length: 2000 }, (_, n) => {
      const e = g.event(n);
      return [e[3], e[0]];
    });
    expect(sink.rows).toHaveLength(2000);
    for (let i = 0; i < 2000; i++) expect(valuesEqual(sink.rows[i]!.fields, expected[i]), `event ${i}`).toBe(true);
    expect(sink.rows.filter((r) => r.fields[0] !== null)).toHaveLength(1840); // 46 of every 50 are bids
    // Skipped kinds come back as null ROWs: the event type still tells them apart.
    expect(g.event(0, 4)).toEqual([0, null, null, null]);
    expect(g.event(1, 4)).toEqual([1, null, null, null]);
  });

  it('projects columns and validates options', () => {
    const src = source({ 'events.num': '10' });
    expect(src.applyProjection!([3, 0], { kind: 'ROW', fields: [], nullable: false })).toBe(true);
    expect(() => source({ 'events.number': '10' })).toThrow(/Unsupported options found for 'nexmark'/);
    expect(() => source({ 'first-event.rate': '0' })).toThrow(/first-event.rate/);
    expect(() => source({}).getScanRuntimeProvider({ batchMode: true })).toThrow(/events.num/);
  });

  it('refuses a table whose physical columns are not the generator\'s four, instead of filling them by position', () => {
    const bidOnly = [columns[0], columns[3]] as const;
    const make = (cols: typeof bidOnly | typeof columns) => () =>
      new NexmarkTableSourceFactory().createDynamicTableSource(tableContext(cols, { connector: 'nexmark' }));
    expect(make(bidOnly)).toThrow(/produces exactly the physical columns event_type INT, person ROW<.*the table declares event_type INT, bid ROW</);
    const renamed = [columns[0], columns[1], columns[2], ['bids', columns[3][1]]] as const;
    expect(make(renamed as unknown as typeof columns)).toThrow(/the table declares .*bids ROW</);
    expect(make(columns)).not.toThrow();
  });

  it('ships the standard DDL with placeholders filled', () => {
    expect(NEXMARK_TABLE_DDL).toContain("WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND");
    const ddl = nexmarkDdl(1000, 50);
    expect(ddl).toContain("'first-event.rate' = '1000'");
    expect(ddl).toContain("'events.num' = '50'");
    expect(ddl).toContain('CREATE VIEW bid AS');
  });

  it('generates well over a million events per second in the generator alone', () => {
    const g = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, baseTime: 0 });
    const n = 200_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) g.event(i);
    const perSec = n / ((performance.now() - t0) / 1000);
    console.log(`nexmark generator: ${(perSec / 1e6).toFixed(2)} M events/s`);
    expect(perSec).toBeGreaterThan(50_000);
  });
});
