import { describe, expect, it } from 'vitest';
import { decodeBatch, encodeBatch } from '../../src/runtime/workers/batch-codec.js';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import type { AggregateSpec } from '../../src/table-runtime/group-aggregate-operator.js';
import { LocalWindowAggregateOperator } from '../../src/table-runtime/local-window-aggregate-operator.js';
import { assignWindows } from '../../src/table-runtime/window-assigner-operator.js';
import type { WindowAssignment } from '../../src/table-runtime/window-assigner-operator.js';
import { WindowAggregateOperator } from '../../src/table-runtime/window-aggregate-operator.js';
import type { WindowKeySlot } from '../../src/table-runtime/window-aggregate-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { OperatorHarness } from './fake-context.js';

type Sliced = Exclude<WindowAssignment, { kind: 'SESSION' }>;

/** Input rows: [key, v (BIGINT or NULL), ts, flag]. */
type In = [string, bigint | null, number, boolean];

/** COUNT(*), SUM(v), MIN(v), MAX(v), AVG(v), COUNT(v) FILTER (WHERE flag): every built-in that merges. */
function specs(): AggregateSpec[] {
  const big = [DataTypes.BIGINT()];
  return [
    { fn: builtinAggregate('COUNT', [], DataTypes.BIGINT(), { retracts: false }), args: [], distinct: false, filterArg: -1, countStar: true },
    { fn: builtinAggregate('SUM', big, DataTypes.BIGINT(), { retracts: false }), args: [1], distinct: false, filterArg: -1 },
    { fn: builtinAggregate('MIN', big, DataTypes.BIGINT(), { retracts: false }), args: [1], distinct: false, filterArg: -1 },
    { fn: builtinAggregate('MAX', big, DataTypes.BIGINT(), { retracts: false }), args: [1], distinct: false, filterArg: -1 },
    { fn: builtinAggregate('AVG', big, DataTypes.BIGINT(), { retracts: false }), args: [1], distinct: false, filterArg: -1 },
    { fn: builtinAggregate('COUNT', big, DataTypes.BIGINT(), { retracts: false }), args: [1], distinct: false, filterArg: 3 },
  ];
}

const keys: WindowKeySlot[] = [{ kind: 'field', index: 0 }, { kind: 'start' }, { kind: 'end' }];

/** One step of a run: rows or a watermark reaching subtask `sub`, or a checkpoint barrier reaching every subtask. */
type Step = { kind: 'rows'; sub: number; rows: In[] } | { kind: 'watermark'; sub: number; wm: number } | { kind: 'barrier' };

const line = (r: Row): string => r.fields.map(String).join(' ');

/** Windows fire in the same order both ways; rows of one window may come in any order (as in Flink). */
function expectSameWindows(two: readonly string[], one: readonly string[]): void {
  const ends = (xs: readonly string[]): string[] => xs.map((x) => x.split(' ')[2]!).filter((e, i, a) => i === 0 || a[i - 1] !== e);
  expect(ends(two)).toEqual(ends(one));
  expect([...two].sort()).toEqual([...one].sort());
}

/**
 * Runs `steps` through one-phase window aggregation (the reference: every row reaches one operator) and through
 * `subtasks` local phases feeding one global phase, the partial rows encoded and decoded as between worker
 * threads. The global phase sees the minimum of the local watermarks, as an exchange does. Returns both outputs
 * in emission order and the number of partial rows that crossed the exchange.
 */
async function run(window: Sliced, subtasks: number, steps: Step[]): Promise<{ one: string[]; two: string[]; crossed: number; inRows: number }> {
  const one = await new OperatorHarness(new WindowAggregateOperator({ input: { kind: 'assign', timeIndex: 2, window }, keys, output: null }, specs())).open();
  const locals = await Promise.all(
    Array.from({ length: subtasks }, () => new OperatorHarness(new LocalWindowAggregateOperator({ timeIndex: 2, window, keys: [0] }, specs())).open()),
  );
  const globalSpecs = specs().map((a) => ({ ...a, args: [], filterArg: -1 }));
  const global = await new OperatorHarness(new WindowAggregateOperator({ input: { kind: 'partial', keyCount: 1, window }, keys, output: null }, globalSpecs)).open();
  const wms = locals.map(() => Number.NEGATIVE_INFINITY);
  let combined = Number.NEGATIVE_INFINITY;
  let crossed = 0;
  let inRows = 0;
  const ship = (): void => {
    for (const l of locals) {
      if (l.out.length === 0) continue;
      const partials = decodeBatch(encodeBatch(l.out.splice(0)));
      crossed += partials.length;
      global.push(partials);
    }
  };
  const advance = (): void => {
    const m = Math.min(...wms);
    if (m > combined) {
      combined = m;
      one.watermark(m);
      global.watermark(m);
    }
  };
  for (const s of steps) {
    if (s.kind === 'rows') {
      const rows = s.rows.map(([k, v, t, f]) => Row.insert(k, v, t, f));
      inRows += rows.length;
      one.push(rows);
      locals[s.sub]!.push(rows.map((r) => Row.insert(...r.fields)));
    } else if (s.kind === 'watermark') {
      locals[s.sub]!.watermark(s.wm);
      wms[s.sub] = s.wm;
    } else for (const l of locals) l.op.prepareSnapshotPreBarrier?.(1);
    ship();
    advance();
  }
  for (const l of locals) await l.finish();
  ship();
  await one.finish();
  await global.finish();
  return { one: one.out.map(line), two: global.out.map(line), crossed, inRows };
}

/** A deterministic stream of `n` rows over 5 keys, out of order by up to `disorder` ms, with NULLs and flags. */
function rows(n: number, seed: number, disorder: number): In[] {
  let x = seed;
  const rnd = (m: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
    return x % m;
  };
  const out: In[] = [];
  for (let i = 0; i < n; i++) out.push([`k${rnd(5)}`, rnd(7) === 0 ? null : BigInt(rnd(1000) - 300), i * 3 + rnd(disorder + 1), rnd(2) === 0]);
  return out;
}

/** Cuts `input` into batches for two subtasks, each followed by its watermark (max time seen - `delay`). */
function interleave(input: In[], delay: number, barrierEvery = 0): Step[] {
  const steps: Step[] = [];
  const max = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (let i = 0, b = 0; i < input.length; i += 7, b++) {
    const sub = b % 2;
    const batch = input.slice(i, i + 7);
    steps.push({ kind: 'rows', sub, rows: batch });
    for (const r of batch) max[sub] = Math.max(max[sub]!, r[2]);
    steps.push({ kind: 'watermark', sub, wm: max[sub]! - delay });
    if (barrierEvery > 0 && b % barrierEvery === 0) steps.push({ kind: 'barrier' });
  }
  return steps;
}

const windows: [string, Sliced][] = [
  ['TUMBLE', { kind: 'TUMBLE', size: 50, offset: 0 }],
  ['TUMBLE with an offset', { kind: 'TUMBLE', size: 40, offset: 7 }],
  ['HOP, size a multiple of slide', { kind: 'HOP', size: 60, slide: 20, offset: 0 }],
  ['HOP, size not a multiple of slide', { kind: 'HOP', size: 25, slide: 10, offset: 0 }],
  ['HOP, size below slide (gaps)', { kind: 'HOP', size: 5, slide: 20, offset: 0 }],
  ['CUMULATE', { kind: 'CUMULATE', size: 60, step: 20, offset: 0 }],
  ['CUMULATE with an offset', { kind: 'CUMULATE', size: 45, step: 15, offset: 4 }],
];

describe('two-phase window aggregation (local per slice, global merging slices)', () => {
  for (const [name, w] of windows) {
    it(`gives the one-phase result, windows in the same order, at parallelism 2: ${name}`, async () => {
      const r = await run(w, 2, interleave(rows(400, 7, 10), 12, 5));
      expectSameWindows(r.two, r.one);
      expect(r.one.length).toBeGreaterThan(10);
    });

    it(`counts late rows in the windows that have not fired, as one phase does: ${name}`, async () => {
      // One subtask, a watermark with no delay and rows up to 60 ms out of order: many rows are late for some windows.
      const r = await run(w, 1, interleave(rows(300, 11, 60), 0, 3).map((s) => (s.kind === 'rows' || s.kind === 'watermark' ? { ...s, sub: 0 } : s)));
      expectSameWindows(r.two, r.one);
    });
  }

  it('sends one partial row per key and slice across the exchange, not one per input row', async () => {
    const r = await run({ kind: 'TUMBLE', size: 1000, offset: 0 }, 2, interleave(rows(2000, 3, 5), 0));
    expectSameWindows(r.two, r.one);
    // 2000 rows over 6 s of event time, 5 keys, 2 subtasks: one partial per key, slice and subtask, or two when a
    // flush (the whole buffer goes out when the earliest slice ends) catches a slice that has begun.
    expect(r.crossed).toBeLessThanOrEqual(2 * 5 * 7 * 2);
    expect(r.crossed).toBeGreaterThanOrEqual(2 * 5 * 6);
    expect(r.inRows).toBe(2000);
  });

  it('flushes its buffer before forwarding the watermark that reaches a slice end, and before a barrier', async () => {
    const local = await new OperatorHarness(new LocalWindowAggregateOperator({ timeIndex: 2, window: { kind: 'TUMBLE', size: 10, offset: 0 }, keys: [0] }, specs())).open();
    local.push([Row.insert('a', 1n, 1, true), Row.insert('a', 2n, 3, false), Row.insert('b', 5n, 12, true)]);
    local.watermark(8);
    expect(local.out).toEqual([]);
    expect(local.watermarks).toEqual([8]);
    local.watermark(9);
    // Every buffered slice goes out (Flink flushes the whole buffer), then the watermark.
    expect(local.out.map((r) => [r.fields[0], r.fields[1], r.fields.at(-1)])).toEqual([
      ['a', 2, 10],
      ['b', 1, 20],
    ]);
    expect(local.watermarks).toEqual([8, 9]);
    local.out.length = 0;
    local.push([Row.insert('c', 1n, 25, true)]);
    local.op.prepareSnapshotPreBarrier?.(1);
    expect(local.out.map((r) => r.fields[0])).toEqual(['c']);
    expect(local.op.snapshotState).toBeUndefined();
  });

  for (const [name, w] of windows.filter(([, x]) => x.kind !== 'TUMBLE')) {
    it(`takes over a checkpoint that kept whole windows (a one-phase plan reading the TVF's rows): ${name}`, async () => {
      const input = rows(300, 5, 8);
      const half = input.slice(0, 150);
      const rest = input.slice(150);
      const tvfRows = (xs: In[]): Row[] => xs.flatMap(([k, v, t, f]) => assignWindows(t, w).map(([s, e]) => Row.insert(k, v, t, f, s, e)));
      const byWindow = await new OperatorHarness(
        new WindowAggregateOperator({ input: { kind: 'fields', startField: 4, endField: 5 }, keys, output: null }, specs()),
      ).open();
      byWindow.push(tvfRows(half));
      byWindow.watermark(300);
      const snapshot = byWindow.op.snapshotState!(1);
      const global = new WindowAggregateOperator({ input: { kind: 'partial', keyCount: 1, window: w }, keys, output: null }, specs().map((a) => ({ ...a, args: [], filterArg: -1 })));
      global.initializeState!(structuredClone(snapshot));
      const g = await new OperatorHarness(global).open();
      const local = await new OperatorHarness(new LocalWindowAggregateOperator({ timeIndex: 2, window: w, keys: [0] }, specs())).open();
      local.push(rest.map(([k, v, t, f]) => Row.insert(k, v, t, f)));
      await local.finish();
      g.push(local.out);
      await g.finish();
      const reference = await new OperatorHarness(new WindowAggregateOperator({ input: { kind: 'assign', timeIndex: 2, window: w }, keys, output: null }, specs())).open();
      reference.push(input.map(([k, v, t, f]) => Row.insert(k, v, t, f)));
      reference.watermark(300);
      await reference.finish();
      expect([...byWindow.out, ...g.out].map(line).sort()).toEqual(reference.out.map(line).sort());
    });
  }

  for (const [name, w] of windows.filter(([, x]) => x.kind !== 'TUMBLE')) {
    it(`hands a checkpoint kept by slice to a one-phase plan reading the TVF's rows: ${name}`, async () => {
      const input = rows(300, 9, 8);
      const tvfRows = (xs: In[]): Row[] => xs.flatMap(([k, v, t, f]) => assignWindows(t, w).map(([s, e]) => Row.insert(k, v, t, f, s, e)));
      const global = await new OperatorHarness(
        new WindowAggregateOperator({ input: { kind: 'partial', keyCount: 1, window: w }, keys, output: null }, specs().map((a) => ({ ...a, args: [], filterArg: -1 }))),
      ).open();
      const local = await new OperatorHarness(new LocalWindowAggregateOperator({ timeIndex: 2, window: w, keys: [0] }, specs())).open();
      local.push(input.slice(0, 150).map(([k, v, t, f]) => Row.insert(k, v, t, f)));
      local.watermark(300);
      global.push(local.out);
      global.watermark(300);
      const snapshot = global.op.snapshotState!(1);
      const byWindow = new WindowAggregateOperator({ input: { kind: 'fields', startField: 4, endField: 5, window: w }, keys, output: null }, specs());
      byWindow.initializeState!(structuredClone(snapshot));
      const b = await new OperatorHarness(byWindow).open();
      b.push(tvfRows(input.slice(150)));
      await b.finish();
      const reference = await new OperatorHarness(new WindowAggregateOperator({ input: { kind: 'assign', timeIndex: 2, window: w }, keys, output: null }, specs())).open();
      reference.push(input.map(([k, v, t, f]) => Row.insert(k, v, t, f)));
      reference.watermark(300);
      await reference.finish();
      expect([...global.out, ...b.out].map(line).sort()).toEqual(reference.out.map(line).sort());
    });
  }

  it('drops rows without a time and rows in no window, as the window TVF does', async () => {
    const local = await new OperatorHarness(new LocalWindowAggregateOperator({ timeIndex: 2, window: { kind: 'HOP', size: 5, slide: 20, offset: 0 }, keys: [0] }, specs())).open();
    local.push([Row.insert('a', 1n, null, true), Row.insert('a', 1n, 7, true), Row.insert('a', 1n, 2, true)]);
    await local.finish();
    expect(local.out.map((r) => [r.fields[0], r.fields[1], r.fields.at(-1)])).toEqual([['a', 1, 5]]);
  });
});
