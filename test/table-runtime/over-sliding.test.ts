import { describe, expect, it } from 'vitest';
import type { AggregateFunction } from '../../src/table-runtime/aggregates/aggregate-function.js';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import { OverAggregateOperator } from '../../src/table-runtime/over-aggregate-operator.js';
import type { OverCallSpec, OverFrame } from '../../src/table-runtime/over-aggregate-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { OperatorHarness } from './fake-context.js';

const INT = DataTypes.INT();
const BIGINT = DataTypes.BIGINT();

/** The same function without `retract`: the operator then recomputes each bounded frame from its rows. */
function noRetract(fn: AggregateFunction<unknown>): AggregateFunction<unknown> {
  return { createAccumulator: () => fn.createAccumulator(), accumulate: (acc, ...a) => fn.accumulate(acc, ...a), getValue: (acc) => fn.getValue(acc) };
}

function calls(frame: OverFrame, retract: boolean): OverCallSpec[] {
  const mk = (name: string, result = INT) => () => (retract ? builtinAggregate(name, [INT], result) : noRetract(builtinAggregate(name, [INT], result)));
  return [
    { create: mk('COUNT', BIGINT), args: [2], frame, distinct: true },
    { create: mk('SUM'), args: [2], frame, distinct: true },
    { create: mk('SUM'), args: [2], frame },
    { create: mk('MIN'), args: [2], frame },
    { create: mk('MAX'), args: [2], frame, distinct: true },
    { create: mk('FIRST_VALUE'), args: [2], frame },
  ];
}

/** Deterministic pseudo-random ints. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

async function run(frame: OverFrame, retract: boolean, rows: Row[], chunks: number): Promise<string[]> {
  // Fields: k, ts, v.
  const op = new OverAggregateOperator({ partitionKeys: [0], orderKey: 1, descending: false, calls: calls(frame, retract), mode: 'streaming' });
  const h = await new OperatorHarness(op).open();
  // Chunks of rows, each followed by a watermark a little behind its last row (some rows stay pending).
  const per = Math.ceil(rows.length / chunks);
  for (let i = 0; i < chunks; i++) {
    const chunk = rows.slice(i * per, (i + 1) * per);
    h.push(chunk);
    h.watermark(i === chunks - 1 ? Number.MAX_SAFE_INTEGER : (chunk[chunk.length - 1]!.fields[1] as number) - 3);
  }
  return h.out.map((r) => JSON.stringify(r.fields, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
}

describe('OVER bounded frames slide (accumulate entering rows, retract leaving ones)', () => {
  const rnd = lcg(7);
  // Timestamps ascend in steps of 0-2 ms (ties make peer groups); values repeat often (DISTINCT matters), some NULL.
  const rows: Row[] = [];
  let ts = 100;
  for (let i = 0; i < 400; i++) {
    ts += Math.floor(rnd() * 3);
    const v = rnd() < 0.1 ? null : Math.floor(rnd() * 6);
    rows.push(Row.insert(rnd() < 0.5 ? 'a' : 'b', ts, v));
  }

  for (const frame of [
    { unit: 'ROWS', preceding: 0 },
    { unit: 'ROWS', preceding: 3 },
    { unit: 'ROWS', preceding: 10 },
    { unit: 'RANGE', preceding: 0 },
    { unit: 'RANGE', preceding: 4 },
  ] as const) {
    it(`${frame.unit} ${frame.preceding} PRECEDING gives what recomputing every frame gives, across several releases`, async () => {
      const sliding = await run(frame, true, rows, 7);
      const recomputed = await run(frame, false, rows, 7);
      expect(sliding).toHaveLength(400);
      expect(sliding).toEqual(recomputed);
    });
  }

  it('ROWS 1 PRECEDING: exact results, a value counted again after it left the frame', async () => {
    const h = await new OperatorHarness(new OverAggregateOperator({ partitionKeys: [0], orderKey: 1, descending: false, calls: calls({ unit: 'ROWS', preceding: 1 }, true), mode: 'streaming' })).open();
    h.push([Row.insert('a', 1, 5), Row.insert('a', 2, 5), Row.insert('a', 3, 7)]);
    h.watermark(2);
    h.push([Row.insert('a', 4, 5), Row.insert('a', 5, null)]);
    h.watermark(10);
    const show = h.out.map((r) => JSON.stringify(r.fields.slice(2), (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
    // v, COUNT(DISTINCT), SUM(DISTINCT), SUM, MIN, MAX(DISTINCT), FIRST_VALUE
    expect(show).toEqual(['[5,1,5,5,5,5,5]', '[5,1,5,10,5,5,5]', '[7,2,12,12,5,7,5]', '[5,2,12,12,5,7,7]', '[null,1,5,5,5,5,5]']);
  });

  it('a batch partition longer than a trim period (history trimmed during the release) slides like it recomputes', async () => {
    const many: Row[] = [];
    const r2 = lcg(11);
    for (let i = 0; i < 3000; i++) many.push(Row.insert('a', 1000 + i + Math.floor(r2() * 2), Math.floor(r2() * 9)));
    const batch = async (frame: OverFrame, retract: boolean): Promise<string[]> => {
      const h = await new OperatorHarness(new OverAggregateOperator({ partitionKeys: [0], orderKey: 1, descending: false, calls: calls(frame, retract), mode: 'batch' })).open();
      h.push(many);
      await h.finish();
      return h.out.map((r) => JSON.stringify(r.fields, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
    };
    for (const frame of [{ unit: 'ROWS', preceding: 5 }, { unit: 'RANGE', preceding: 3 }] as const) {
      const sliding = await batch(frame, true);
      expect(sliding).toHaveLength(3000);
      expect(sliding).toEqual(await batch(frame, false));
      // And what a naive reading of the frame gives, for COUNT(DISTINCT v) (fields: k, ts, v, then the calls).
      const sorted = [...many].sort((x, y) => (x.fields[1] as number) - (y.fields[1] as number));
      const naive = sorted.map((r, i) => {
        const t = r.fields[1] as number;
        const inFrame = frame.unit === 'ROWS' ? sorted.slice(Math.max(0, i - frame.preceding), i + 1) : sorted.filter((x) => t - (x.fields[1] as number) <= frame.preceding && (x.fields[1] as number) <= t);
        return new Set(inFrame.map((x) => x.fields[2])).size;
      });
      expect(sliding.map((l) => (JSON.parse(l) as number[])[3])).toEqual(naive);
    }
  });
});

