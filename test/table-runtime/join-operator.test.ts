import { describe, expect, it } from 'vitest';
import { HeapKeyedStateBackend } from '../../src/runtime/state/heap-state-backend.js';
import { LmdbKeyedStateBackend } from '../../src/runtime/state/lmdb-state-backend.js';
import { decodeState, encodeState } from '../../src/runtime/state/state-codec.js';
import type { KeyedStateSnapshot } from '../../src/runtime/state/heap-state-backend.js';
import { keyGroupOf } from '../../src/runtime/key-groups.js';
import type { StateKey } from '../../src/runtime/state/state.js';
import { bigintJoinKey } from '../../src/table-runtime/join-flat-rows.js';
import { JoinOperator } from '../../src/table-runtime/join-operator.js';
import type { JoinSpec, JoinType } from '../../src/table-runtime/join-operator.js';
import { Decimal } from '../../src/types/decimal.js';
import { Row } from '../../src/types/row.js';
import { RowKind, rowKindShortString } from '../../src/types/row-kind.js';
import { valuesEqual } from '../../src/types/values/equality.js';
import { OperatorHarness } from './fake-context.js';

const plain = (x: unknown): unknown => (typeof x === 'bigint' ? `${x}n` : x instanceof Decimal ? `D${x.toString()}` : Array.isArray(x) ? x.map(plain) : x);
const text = (v: unknown): string => JSON.stringify(plain(v));
const show = (rows: readonly Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)}${text(r.fields)}`);
const del = (...f: unknown[]): Row => new Row(RowKind.DELETE, f);

function spec(joinType: JoinType, mode: 'streaming' | 'batch', over: Partial<JoinSpec> = {}): JoinSpec {
  return { joinType, leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2, condition: null, mode, ...over };
}

/** Applies a changelog to a multiset of rows (by text); fails on a retraction of a row never added. */
function materialize(rows: readonly Row[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows) {
    const k = text(r.fields);
    const add = r.kind === RowKind.INSERT || r.kind === RowKind.UPDATE_AFTER;
    const n = (m.get(k) ?? 0) + (add ? 1 : -1);
    if (n < 0) throw new Error(`retracted a row not emitted: ${k}`);
    if (n === 0) m.delete(k);
    else m.set(k, n);
  }
  return m;
}

/** The join of two multisets by a nested loop, as the reference. */
function nestedLoop(s: JoinSpec, l: readonly unknown[][], r: readonly unknown[][]): Map<string, number> {
  const out: Row[] = [];
  const keyEq = (a: unknown[], b: unknown[]): boolean =>
    s.leftKeys.every((k, i) => a[k] !== null && valuesEqual(a[k], b[s.rightKeys[i]!]));
  const pass = (j: unknown[]): boolean => s.condition === null || s.condition(j) === true;
  const nulls = (n: number): unknown[] => new Array<unknown>(n).fill(null);
  const rightMatched = new Set<number>();
  for (const a of l) {
    let hit = false;
    r.forEach((b, bi) => {
      if (keyEq(a, b) && pass([...a, ...b])) {
        hit = true;
        rightMatched.add(bi);
        out.push(Row.insert(...a, ...b));
      }
    });
    if (!hit && (s.joinType === 'LEFT' || s.joinType === 'FULL')) out.push(Row.insert(...a, ...nulls(s.rightArity)));
  }
  if (s.joinType === 'RIGHT' || s.joinType === 'FULL') r.forEach((b, bi) => void (rightMatched.has(bi) || out.push(Row.insert(...nulls(s.leftArity), ...b))));
  return materialize(out);
}

/** A small deterministic PRNG so a failing sequence can be replayed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

describe('JoinOperator (streaming)', () => {
  it('inner join: a retraction removes one of two identical rows and retracts only its joined rows', async () => {
    const h = await new OperatorHarness(new JoinOperator(spec('INNER', 'streaming'))).open();
    h.push([Row.insert(1, 'a'), Row.insert(1, 'a')], 0);
    h.push([Row.insert(1, 'x')], 1);
    h.push([del(1, 'a')], 0);
    h.push([Row.insert(1, 'y')], 1);
    expect(show(h.out)).toEqual(['+I[1,"a",1,"x"]', '+I[1,"a",1,"x"]', '-D[1,"a",1,"x"]', '+I[1,"a",1,"y"]']);
  });

  it('full join pads both sides, and un-pads / re-pads as the match count goes 0 -> 2 -> 0', async () => {
    const h = await new OperatorHarness(new JoinOperator(spec('FULL', 'streaming'))).open();
    h.push([Row.insert(1, 'r1')], 1);
    h.push([Row.insert(1, 'l')], 0);
    h.push([Row.insert(1, 'r2')], 1);
    h.push([del(1, 'r1'), del(1, 'r2')], 1);
    h.push([del(1, 'l')], 0);
    expect(show(h.out)).toEqual([
      '+I[null,null,1,"r1"]',
      '-D[null,null,1,"r1"]', '+I[1,"l",1,"r1"]',
      '+I[1,"l",1,"r2"]',
      '-D[1,"l",1,"r1"]', '-D[1,"l",1,"r2"]', '+I[1,"l",null,null]',
      '-D[1,"l",null,null]',
    ]);
    expect([...h.keyed.keys('left')]).toEqual([]);
    expect([...h.keyed.keys('right')]).toEqual([]);
  });

  it('NULL keys never join; DECIMAL keys join by value (1.5 = 1.50); composite keys compare every column', async () => {
    const h = await new OperatorHarness(new JoinOperator(spec('LEFT', 'streaming', { leftKeys: [0, 1], rightKeys: [0, 1] }))).open();
    h.push([Row.insert(null, 'a'), Row.insert(Decimal.parse('1.5'), 'a'), Row.insert(Decimal.parse('1.5'), 'b')], 1);
    h.push([Row.insert(null, 'a'), Row.insert(Decimal.parse('1.50'), 'a')], 0);
    expect(show(h.out)).toEqual(['+I[null,"a",null,null]', '+I["D1.50","a","D1.5","a"]']);
  });

  it('a non-equi condition decides matches, and so the padding', async () => {
    const cond = (f: unknown[]): boolean => (f[1] as number) < (f[3] as number);
    const h = await new OperatorHarness(new JoinOperator(spec('LEFT', 'streaming', { condition: cond }))).open();
    h.push([Row.insert('k', 5)], 0);
    h.push([Row.insert('k', 3)], 1);
    h.push([Row.insert('k', 9)], 1);
    expect(show(h.out)).toEqual(['+I["k",5,null,null]', '-D["k",5,null,null]', '+I["k",5,"k",9]']);
  });

  it('a side with no columns (cross join after pruning) still counts its rows', async () => {
    const h = await new OperatorHarness(new JoinOperator(spec('INNER', 'streaming', { leftKeys: [], rightKeys: [], leftArity: 1, rightArity: 0 }))).open();
    h.push([Row.insert(), Row.insert()], 1);
    h.push([Row.insert(7)], 0);
    h.push([del()], 1);
    h.push([Row.insert(8)], 0);
    expect(show(h.out)).toEqual(['+I[7]', '+I[7]', '-D[7]', '+I[8]']);
  });

  for (const joinType of ['INNER', 'LEFT', 'RIGHT', 'FULL'] as const) {
    for (const keyKind of ['int', 'composite', 'bigint'] as const) {
      it(`${joinType} join over a random changelog (${keyKind} key) materializes to the nested-loop join`, async () => {
        // BIGINT columns, stored narrowed to numbers while safe: `plain` prints a bigint as "1n" and a number as 1, so
        // a stored value not widened back (or widened where it was a number) does not materialize to the reference.
        const both = [true, true];
        const s =
          keyKind === 'int' ? spec(joinType, 'streaming')
          : keyKind === 'bigint' ? spec(joinType, 'streaming', { leftBigints: both, rightBigints: both })
          : spec(joinType, 'streaming', { leftKeys: [0, 1], rightKeys: [1, 0] });
        /** Some keys and values beyond 2^53, which stay bigints. */
        const big = (n: number): bigint => (n === 3 ? 2n ** 60n + 7n : n === 2 ? -(2n ** 55n) : BigInt(n));
        const h = await new OperatorHarness(new JoinOperator(s)).open();
        const rand = rng(joinType.length * 31 + keyKind.length);
        const live: [unknown[][], unknown[][]] = [[], []];
        for (let step = 0; step < 400; step++) {
          const side = rand() < 0.5 ? 0 : 1;
          const rows = live[side];
          const batch: Row[] = [];
          for (let n = 1 + Math.floor(rand() * 3); n > 0; n--) {
            if (rows.length > 0 && rand() < 0.35) {
              const [f] = rows.splice(Math.floor(rand() * rows.length), 1);
              batch.push(new Row(rand() < 0.5 ? RowKind.DELETE : RowKind.UPDATE_BEFORE, f!));
            } else {
              const k = rand() < 0.1 ? null : Math.floor(rand() * 4);
              const v = Math.floor(rand() * 4);
              const f =
                keyKind === 'int' ? [k, v % 3]
                : keyKind === 'bigint' ? [k === null ? null : big(k), big(v)]
                : [k, k === null ? 'x' : `s${v % 2}`];
              rows.push(f);
              batch.push(new Row(rand() < 0.8 ? RowKind.INSERT : RowKind.UPDATE_AFTER, f));
            }
          }
          h.push(batch, side);
        }
        expect(materialize(h.out)).toEqual(nestedLoop(s, live[0], live[1]));
      });
    }
  }

  it('a row matching many stored rows emits them in several batches', async () => {
    const h = await new OperatorHarness(new JoinOperator(spec('INNER', 'streaming'))).open();
    const batches: number[] = [];
    h.push(Array.from({ length: 20_000 }, (_, i) => Row.insert(0, i)), 0);
    (h.ctx as { output: { collect(rows: Row[]): void } }).output.collect = (rows) => void batches.push(rows.length);
    h.push([Row.insert(0, 'x')], 1);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(20_000);
    expect(batches.length).toBeGreaterThan(1);
  });

  it('restores from a checkpoint and continues as if never stopped', async () => {
    const s = spec('LEFT', 'streaming');
    const a = await new OperatorHarness(new JoinOperator(s)).open();
    a.push([Row.insert(1, 'l'), Row.insert(2, 'm')], 0);
    a.push([Row.insert(1, 'r')], 1);
    // Encoded as the checkpoint storage does.
    const snap = decodeState(encodeState(a.keyed.snapshot())) as KeyedStateSnapshot;
    a.push([Row.insert(2, 'lost')], 1);
    const b = new OperatorHarness(new JoinOperator(s));
    b.keyed.restore(snap);
    await b.open();
    b.push([Row.insert(2, 'r2'), del(1, 'r')], 1);
    expect(show(b.out)).toEqual(['-D[2,"m",null,null]', '+I[2,"m",2,"r2"]', '-D[1,"l",1,"r"]', '+I[1,"l",null,null]']);
  });

  it('a checkpoint is not changed by rows processed after it', async () => {
    const s = spec('LEFT', 'streaming');
    const a = await new OperatorHarness(new JoinOperator(s)).open();
    a.push([Row.insert(1, 'l')], 0);
    // Encoded at once, as the operator chain does at the barrier.
    const snap = decodeState(encodeState(a.keyed.snapshot())) as KeyedStateSnapshot;
    a.push([Row.insert(1, 'later')], 0);
    a.push([Row.insert(1, 'r')], 1);
    const b = new OperatorHarness(new JoinOperator(s));
    b.keyed.restore(snap);
    await b.open();
    b.push([Row.insert(1, 'r')], 1);
    expect(show(b.out)).toEqual(['-D[1,"l",null,null]', '+I[1,"l",1,"r"]']);
  });
});

describe('JoinOperator BIGINT columns in state', () => {
  const bigints = { leftBigints: [true, true], rightBigints: [true, false] };

  it('stores safe-integer BIGINT values as numbers, others as they come, and emits bigints', async () => {
    const h = await new OperatorHarness(new JoinOperator(spec('LEFT', 'streaming', bigints))).open();
    h.push([Row.insert(1n, 5n), Row.insert(1n, 2n ** 60n)], 0);
    h.keyed.setCurrentKey(bigintJoinKey(1n));
    expect(h.keyed.getState<unknown[]>('left').value()).toEqual([1, 5, 0, 1, 2n ** 60n, 0]);
    h.push([Row.insert(1n, 'r')], 1);
    h.push([del(1n, 'r')], 1);
    h.push([del(1n, 5n)], 0);
    expect(show(h.out)).toEqual([
      '+I["1n","5n",null,null]', '+I["1n","1152921504606846976n",null,null]',
      '-D["1n","5n",null,null]', '+I["1n","5n","1n","r"]', '-D["1n","1152921504606846976n",null,null]', '+I["1n","1152921504606846976n","1n","r"]',
      '-D["1n","5n","1n","r"]', '+I["1n","5n",null,null]', '-D["1n","1152921504606846976n","1n","r"]', '+I["1n","1152921504606846976n",null,null]',
      '-D["1n","5n",null,null]',
    ]);
    h.keyed.setCurrentKey(bigintJoinKey(1n));
    expect(h.keyed.getState<unknown[]>('left').value()).toEqual([1, 2n ** 60n, 0]);
  });

  it('continues a checkpoint of an earlier release, whose stored BIGINT values are bigints, and retracts them', async () => {
    const s = spec('LEFT', 'streaming', bigints);
    const old = new HeapKeyedStateBackend();
    old.setCurrentKey(bigintJoinKey(1n));
    old.getState<unknown[]>('left').update([1n, 5n, 0]);
    const b = new OperatorHarness(new JoinOperator(s));
    b.keyed.restore(decodeState(encodeState(old.snapshot())) as KeyedStateSnapshot);
    await b.open();
    b.push([Row.insert(1n, 6n)], 0);
    b.push([Row.insert(1n, 'r')], 1);
    b.push([del(1n, 5n), del(1n, 6n)], 0);
    expect(show(b.out)).toEqual([
      '+I["1n","6n",null,null]',
      '-D["1n","5n",null,null]', '+I["1n","5n","1n","r"]', '-D["1n","6n",null,null]', '+I["1n","6n","1n","r"]',
      '-D["1n","5n","1n","r"]', '-D["1n","6n","1n","r"]',
    ]);
    b.keyed.setCurrentKey(bigintJoinKey(1n));
    expect(b.keyed.getState<unknown[]>('left').value()).toBeUndefined();
  });
});

describe('JoinOperator state keys of a BIGINT join key', () => {
  it('keys an int32 bigint by a number in the same key group, distinct per value; other bigints by themselves', () => {
    const seen = new Set<StateKey>();
    const wrong: string[] = [];
    for (const v of [0n, 1n, -1n, 1000n, 10_999n, 2_147_483_647n, -2_147_483_648n, ...Array.from({ length: 5000 }, (_, i) => BigInt(i * 7919 - 20_000_000))]) {
      const k = bigintJoinKey(v);
      if (typeof k !== 'number') wrong.push(`${v}: ${typeof k}`);
      for (const maxP of [128, 4096, 32768]) if (keyGroupOf(k, maxP) !== keyGroupOf(v, maxP)) wrong.push(`${v}: group at ${maxP}`);
      seen.add(k);
    }
    expect(wrong).toEqual([]);
    expect(seen.size).toBe(5007);
    expect(bigintJoinKey(2_147_483_648n)).toBe(2_147_483_648n);
    expect(bigintJoinKey(-(2n ** 63n))).toBe(-(2n ** 63n));
  });

  it.each(['hashmap', 'lmdb'])('continues a checkpoint whose rows an earlier release keyed by the bigint itself (%s)', async (backend) => {
    const s = spec('LEFT', 'streaming');
    // The state as releases before bigintJoinKey wrote it: rows of key 1n under the key 1n.
    const old = new HeapKeyedStateBackend();
    old.setCurrentKey(1n);
    old.getState<unknown[]>('left').update([1n, 'l', 0, 1n, 'm', 1]);
    old.getState<unknown[]>('right').update([1n, 'r']);
    old.setCurrentKey(3_000_000_000n);
    old.getState<unknown[]>('left').update([3_000_000_000n, 'big', 0]);
    const snap = decodeState(encodeState(old.snapshot())) as KeyedStateSnapshot;
    const b = new OperatorHarness(new JoinOperator(s));
    const keyed = backend === 'lmdb' ? new LmdbKeyedStateBackend({ cacheBytes: 1 << 20, localDir: undefined }) : b.keyed;
    keyed.restore(snap);
    try {
      await b.op.open({ ...b.ctx, keyedState: keyed });
      expect([...keyed.keys('left')].map(String).sort()).toEqual([String(bigintJoinKey(1n)), '3000000000']);
      b.push([Row.insert(1n, 's'), Row.insert(3_000_000_000n, 't')], 1);
      b.push([Row.insert(1n, 'n')], 0);
    } finally {
      if (keyed !== b.keyed) keyed.dispose?.();
    }
    expect(show(b.out)).toEqual([
      '-D["1n","l",null,null]', '+I["1n","l","1n","s"]', '+I["1n","m","1n","s"]',
      '-D["3000000000n","big",null,null]', '+I["3000000000n","big","3000000000n","t"]',
      '+I["1n","n","1n","r"]', '+I["1n","n","1n","s"]',
    ]);
  });
});

describe('JoinOperator (batch)', () => {
  const run = async (s: JoinSpec, l: Row[], r: Row[]): Promise<string[]> => {
    const h = await new OperatorHarness(new JoinOperator(s)).open();
    h.push(r.slice(0, 1), 1).push(l, 0).push(r.slice(1), 1);
    await h.finish();
    return show(h.out).sort();
  };
  const l = [Row.insert(1, 'a'), Row.insert(2, 'b'), Row.insert(null, 'n'), Row.insert(1, 'c')];
  const r = [Row.insert(1, 'x'), Row.insert(3, 'z'), Row.insert(1, 'y'), Row.insert(null, 'n')];

  it('inner, left, right and full hash joins', async () => {
    expect(await run(spec('INNER', 'batch'), l, r)).toEqual(['+I[1,"a",1,"x"]', '+I[1,"a",1,"y"]', '+I[1,"c",1,"x"]', '+I[1,"c",1,"y"]']);
    expect(await run(spec('LEFT', 'batch'), l, r)).toEqual(
      ['+I[1,"a",1,"x"]', '+I[1,"a",1,"y"]', '+I[1,"c",1,"x"]', '+I[1,"c",1,"y"]', '+I[2,"b",null,null]', '+I[null,"n",null,null]'].sort(),
    );
    expect(await run(spec('RIGHT', 'batch'), l, r)).toEqual(
      ['+I[1,"a",1,"x"]', '+I[1,"a",1,"y"]', '+I[1,"c",1,"x"]', '+I[1,"c",1,"y"]', '+I[null,null,3,"z"]', '+I[null,null,null,"n"]'].sort(),
    );
    expect(await run(spec('FULL', 'batch', { condition: (f) => f[1] === 'a' }), l, r)).toEqual(
      ['+I[1,"a",1,"x"]', '+I[1,"a",1,"y"]', '+I[1,"c",null,null]', '+I[2,"b",null,null]', '+I[null,"n",null,null]', '+I[null,null,3,"z"]', '+I[null,null,null,"n"]'].sort(),
    );
  });

  it('joins BIGINT and composite keys, and a side with no columns', async () => {
    expect(await run(spec('INNER', 'batch', { leftKeys: [0, 1], rightKeys: [0, 1] }), [Row.insert(5n, 'a'), Row.insert(5n, 'b')], [Row.insert(5n, 'b'), Row.insert(5, 'b')])).toEqual(['+I["5n","b","5n","b"]']);
    expect(await run(spec('INNER', 'batch', { leftKeys: [], rightKeys: [], leftArity: 0, rightArity: 1 }), [Row.insert(), Row.insert()], [Row.insert(1)])).toEqual(['+I[1]', '+I[1]']);
  });

  it('emits a large result in several batches', async () => {
    const h = await new OperatorHarness(new JoinOperator(spec('INNER', 'batch'))).open();
    const batches: number[] = [];
    const ctx = h.ctx as { output: { collect(rows: Row[]): void } };
    ctx.output.collect = (rows) => void batches.push(rows.length);
    h.push(Array.from({ length: 20_000 }, (_, i) => Row.insert(i % 3, i)), 0);
    h.push([Row.insert(0, 'x'), Row.insert(1, 'y'), Row.insert(2, 'z')], 1);
    await h.finish();
    expect(batches.reduce((a, b) => a + b, 0)).toBe(20_000);
    expect(batches.length).toBeGreaterThan(1);
  });
});

describe('HeapKeyedStateBackend round trip of join state', () => {
  // DECIMAL values are left out: no module registers Decimal with the state codec yet (reported).
  it('keeps flat rows with BIGINT, string and NULL values', () => {
    const b = new HeapKeyedStateBackend();
    b.setCurrentKey(1);
    b.getState<unknown[]>('left').update([1n, 's', null, 0]);
    const c = new HeapKeyedStateBackend();
    c.restore(decodeState(encodeState(b.snapshot())) as KeyedStateSnapshot);
    c.setCurrentKey(1);
    expect(text(c.getState<unknown[]>('left').value())).toBe('["1n","s",null,0]');
  });
});
