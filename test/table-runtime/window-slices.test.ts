import { describe, expect, it } from 'vitest';
import { decodeState, encodeState } from '../../src/runtime/state/state-codec.js';
import type { AggregateSpec } from '../../src/table-runtime/group-aggregate-operator.js';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import { assignWindows } from '../../src/table-runtime/window-assigner-operator.js';
import type { WindowAssignment } from '../../src/table-runtime/window-assigner-operator.js';
import { WindowAggregateOperator } from '../../src/table-runtime/window-aggregate-operator.js';
import type { WindowAggregateSpec } from '../../src/table-runtime/window-aggregate-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import type { LogicalType } from '../../src/types/logical-type.js';
import { hashFields } from '../../src/types/values/equality.js';
import { OperatorHarness } from './fake-context.js';

type Assigning = Exclude<WindowAssignment, { kind: 'SESSION' }>;
/** One step of a stream: a row [key, value, ts] or a watermark. */
type Step = { readonly row: [string, bigint | null, number] } | { readonly watermark: number };

const BIGINT = DataTypes.BIGINT();
const call = (name: string, args: number[], argTypes: LogicalType[], type: LogicalType, more: Partial<AggregateSpec> = {}): AggregateSpec => ({
  fn: builtinAggregate(name, argTypes, type, { retracts: false }),
  args,
  distinct: false,
  filterArg: -1,
  ...more,
});
/** COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v), AVG(v): every built-in that merges. */
const mergeable = (): AggregateSpec[] => [
  call('COUNT', [], [], BIGINT, { countStar: true }),
  call('COUNT', [1], [BIGINT], BIGINT),
  call('SUM', [1], [BIGINT], BIGINT),
  call('MIN', [1], [BIGINT], BIGINT),
  call('MAX', [1], [BIGINT], BIGINT),
  call('AVG', [1], [BIGINT], BIGINT),
];

/** Rows of 5 keys, out of order by up to `jitter` ms, with a watermark `lateness` behind the highest time every few rows. */
function stream(seed: number, n: number, jitter: number, lateness: number): Step[] {
  let s = seed;
  const rnd = (m: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s % m;
  };
  const steps: Step[] = [];
  let max = 0;
  for (let i = 0; i < n; i++) {
    const ts = i * 3 + rnd(jitter) - Math.floor(jitter / 2);
    max = Math.max(max, ts);
    steps.push({ row: [`k${rnd(5)}`, rnd(9) === 0 ? null : BigInt(rnd(1000) - 300), ts] });
    if (rnd(4) === 0) steps.push({ watermark: max - lateness });
  }
  return steps;
}

const fusedSpec = (window: Assigning): WindowAggregateSpec => ({
  input: { kind: 'assign', timeIndex: 2, window },
  keys: [{ kind: 'field', index: 0 }, { kind: 'start' }, { kind: 'end' }],
  output: null,
});
/** The same aggregate over the TVF's rows [k, v, ts, window_start, window_end]: one bucket per window. */
const tvfSpec: WindowAggregateSpec = {
  input: { kind: 'fields', startField: 3, endField: 4 },
  keys: [{ kind: 'field', index: 0 }, { kind: 'start' }, { kind: 'end' }],
  output: null,
};

const text = (rows: readonly Row[]): string[] => rows.map((r) => r.fields.map(String).join(' ')).sort();

/** Feeds steps; returns what each watermark (and the end) emitted, each sorted. */
function run(h: OperatorHarness, steps: readonly Step[], window: Assigning | null, emitted: string[][]): void {
  for (const st of steps) {
    if ('watermark' in st) {
      const before = h.out.length;
      h.watermark(st.watermark);
      emitted.push(text(h.out.slice(before)));
      continue;
    }
    const [k, v, ts] = st.row;
    if (window === null) h.push([Row.insert(k, v, ts)]);
    else h.push(assignWindows(ts, window).map(([ws, we]) => Row.insert(k, v, ts, ws, we)));
  }
}

async function finished(h: OperatorHarness, emitted: string[][]): Promise<string[][]> {
  const before = h.out.length;
  await h.finish();
  emitted.push(text(h.out.slice(before)));
  return emitted;
}

/** The result of the aggregate keeping one bucket per window (the TVF's rows), and its late count. */
async function byWindow(window: Assigning, steps: readonly Step[], aggs = mergeable()): Promise<[string[][], number]> {
  const op = new WindowAggregateOperator(tvfSpec, aggs);
  const h = await new OperatorHarness(op).open();
  const emitted: string[][] = [];
  run(h, steps, window, emitted);
  return [await finished(h, emitted), op.lateRecordsDropped];
}

const windows: [string, Assigning][] = [
  ['HOP, size a multiple of slide', { kind: 'HOP', size: 50, slide: 10, offset: 0 }],
  ['HOP, size not a multiple of slide', { kind: 'HOP', size: 25, slide: 10, offset: 0 }],
  ['HOP, size below slide (gaps)', { kind: 'HOP', size: 5, slide: 20, offset: 0 }],
  ['HOP with an offset', { kind: 'HOP', size: 30, slide: 10, offset: 3 }],
  ['CUMULATE', { kind: 'CUMULATE', size: 60, step: 20, offset: 0 }],
  ['CUMULATE with an offset', { kind: 'CUMULATE', size: 30, step: 10, offset: 7 }],
];

describe('window aggregate by slices', () => {
  for (const [name, w] of windows) {
    it(`emits what one bucket per window emits, at the same watermarks, late rows included: ${name}`, async () => {
      // Out of order by up to 60 ms with a 20 ms lateness allowance: many rows are late for some of their windows.
      const steps = stream(7, 600, 60, 20);
      const [expected, late] = await byWindow(w, steps);
      const op = new WindowAggregateOperator(fusedSpec(w), mergeable());
      const h = await new OperatorHarness(op).open();
      const emitted: string[][] = [];
      run(h, steps, null, emitted);
      expect(await finished(h, emitted)).toEqual(expected);
      expect(late).toBeGreaterThan(0);
      expect(op.lateRecordsDropped).toBe(late);
      expect(Object.keys(op.snapshotState() as object)).toContain('slices');
    });

    it(`restores from a checkpoint and goes on as if never stopped: ${name}`, async () => {
      const steps = stream(11, 500, 60, 20);
      const [expected, late] = await byWindow(w, steps);
      const cut = 260;
      const first = new WindowAggregateOperator(fusedSpec(w), mergeable());
      const h1 = await new OperatorHarness(first).open();
      const emitted: string[][] = [];
      run(h1, steps.slice(0, cut), null, emitted);
      const saved = encodeState(first.snapshotState());
      const lateBefore = first.lateRecordsDropped;
      // A new operator whose chain has seen no watermark yet: rows late before the failure stay late.
      const second = new WindowAggregateOperator(fusedSpec(w), mergeable());
      second.initializeState(decodeState(saved));
      const h2 = await new OperatorHarness(second).open();
      run(h2, steps.slice(cut), null, emitted);
      expect(await finished(h2, emitted)).toEqual(expected);
      expect(lateBefore + second.lateRecordsDropped).toBe(late);
    });

    it(`restores at two subtasks, each taking its keys: ${name}`, async () => {
      const steps = stream(13, 400, 30, 20);
      const [expected] = await byWindow(w, steps);
      const cut = 200;
      const first = new WindowAggregateOperator(fusedSpec(w), mergeable());
      const h1 = await new OperatorHarness(first).open();
      const emitted: string[][] = [];
      run(h1, steps.slice(0, cut), null, emitted);
      const saved = decodeState(encodeState(first.snapshotState()));
      const subtask = (k: string): number => hashFields([k], [0]) & 1;
      const rest: Row[] = [];
      for (const i of [0, 1]) {
        const op = new WindowAggregateOperator(fusedSpec(w), mergeable());
        op.initializeRescaledState([saved], (key) => ((key as number) & 1) === i);
        const h = await new OperatorHarness(op).open();
        run(h, steps.slice(cut).filter((s) => !('row' in s) || subtask(s.row[0]) === i), null, []);
        await h.finish();
        rest.push(...h.out);
      }
      expect([...emitted.flat(), ...text(rest)].sort()).toEqual(expected.flat().sort());
    });
  }

  it('restores a checkpoint of one bucket per window (before slicing) and goes on by window', async () => {
    const w: Assigning = { kind: 'HOP', size: 50, slide: 10, offset: 0 };
    const steps = stream(17, 400, 30, 20);
    const [expected] = await byWindow(w, steps);
    const cut = 200;
    // The operator of before slicing kept the same groups per window: the TVF-row path still writes them so.
    const old = new WindowAggregateOperator(tvfSpec, mergeable());
    const h1 = await new OperatorHarness(old).open();
    const emitted: string[][] = [];
    run(h1, steps.slice(0, cut), w, emitted);
    const saved = decodeState(encodeState(old.snapshotState()));
    expect(Object.keys(saved as object)).toEqual(['windows']);
    const op = new WindowAggregateOperator(fusedSpec(w), mergeable());
    op.initializeState(saved);
    const h2 = await new OperatorHarness(op).open();
    run(h2, steps.slice(cut), null, emitted);
    expect(await finished(h2, emitted)).toEqual(expected);
    expect(Object.keys(op.snapshotState() as object)).toEqual(['windows']);
  });

  it('keeps one bucket per window for TUMBLE, whose window is its one slice', async () => {
    const w: Assigning = { kind: 'TUMBLE', size: 40, offset: 0 };
    const steps = stream(23, 300, 60, 20);
    const [expected, late] = await byWindow(w, steps);
    const op = new WindowAggregateOperator(fusedSpec(w), mergeable());
    const h = await new OperatorHarness(op).open();
    const emitted: string[][] = [];
    run(h, steps, null, emitted);
    expect(await finished(h, emitted)).toEqual(expected);
    expect(op.lateRecordsDropped).toBe(late);
    expect(Object.keys(op.snapshotState() as object)).toEqual(['windows']);
  });

  it('keeps one bucket per window for calls that cannot merge (DISTINCT, FIRST_VALUE)', async () => {
    const w: Assigning = { kind: 'CUMULATE', size: 60, step: 20, offset: 0 };
    const aggs = (): AggregateSpec[] => [call('COUNT', [1], [BIGINT], BIGINT, { distinct: true }), call('FIRST_VALUE', [1], [BIGINT], BIGINT)];
    const steps = stream(19, 300, 60, 20);
    const [expected, late] = await byWindow(w, steps, aggs());
    const op = new WindowAggregateOperator(fusedSpec(w), aggs());
    const h = await new OperatorHarness(op).open();
    const emitted: string[][] = [];
    run(h, steps, null, emitted);
    expect(await finished(h, emitted)).toEqual(expected);
    expect(op.lateRecordsDropped).toBe(late);
    expect(Object.keys(op.snapshotState() as object)).toEqual(['windows']);
  });

  it('drops a HOP slice once its last window fired', async () => {
    const op = new WindowAggregateOperator(fusedSpec({ kind: 'HOP', size: 30, slide: 10, offset: 0 }), mergeable());
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert('a', 1n, 5), Row.insert('a', 2n, 15), Row.insert('a', 4n, 25)]);
    const slices = () => (op.snapshotState() as { slices: { end: number }[] }).slices.map((s) => s.end);
    expect(slices()).toEqual([10, 20, 30]);
    h.watermark(29); // fires [0, 30): slice [0, 10) is in no later window
    expect(slices()).toEqual([20, 30]);
    expect(h.out).toHaveLength(3);
    expect(text(h.out)).toContain('a 0 30 3 3 7 1 4 2');
  });

  it('checkpoints COUNT(*) counts apart from the accumulators (the state format), and restores them', async () => {
    type Snap = { slices: { groups: { accs: unknown[]; counts: number[] | null }[] }[] };
    const w: Assigning = { kind: 'HOP', size: 30, slide: 10, offset: 0 };
    const op = new WindowAggregateOperator(fusedSpec(w), mergeable());
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert('a', 1n, 5), Row.insert('a', 2n, 6)]);
    const saved = decodeState(encodeState(op.snapshotState())) as Snap;
    const g = saved.slices[0]!.groups[0]!;
    expect(g.counts).toEqual([2, 0, 0, 0, 0, 0]);
    expect(g.accs[0]).toBeNull();
    const only = new WindowAggregateOperator(fusedSpec(w), [call('COUNT', [], [], BIGINT, { countStar: true })]);
    const ho = await new OperatorHarness(only).open();
    ho.push([Row.insert('a', 1n, 5)]);
    expect((only.snapshotState() as Snap).slices[0]!.groups[0]).toMatchObject({ accs: [], counts: [1] });
    const back = new WindowAggregateOperator(fusedSpec(w), mergeable());
    back.initializeState(saved);
    const hb = await new OperatorHarness(back).open();
    hb.push([Row.insert('a', 4n, 7)]);
    hb.watermark(29);
    expect(text(hb.out)).toContain('a 0 30 3 3 7 1 4 2');
  });
});
