import { describe, expect, it } from 'vitest';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import { GroupAggregateOperator } from '../../src/table-runtime/group-aggregate-operator.js';
import { JoinOperator } from '../../src/table-runtime/join-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import { OperatorHarness } from './fake-context.js';
import { HeapKeyedStateBackend } from '../../src/runtime/state/heap-state-backend.js';
import type { KeyedStateBackend } from '../../src/runtime/state/keyed-state-backend.js';
import { LmdbKeyedStateBackend } from '../../src/runtime/state/lmdb-state-backend.js';

const show = (rows: readonly Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)}${JSON.stringify(r.fields, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))}`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const count = () => ({ fn: builtinAggregate('COUNT', [], DataTypes.BIGINT()), args: [], distinct: false, filterArg: -1 });

describe('table.exec.state.ttl', () => {
  it('a group aggregate forgets a group untouched for longer than the TTL and starts it again with +I', async () => {
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [count()], 'streaming', 30)).open();
    h.push([Row.insert('a'), Row.insert('a')]);
    await sleep(60);
    h.push([Row.insert('a')]);
    expect(show(h.out)).toEqual(['+I["a",1]', '-U["a",1]', '+U["a",2]', '+I["a",1]']);
  });

  it('keeps groups written within the TTL', async () => {
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [count()], 'streaming', 10_000)).open();
    h.push([Row.insert('a')]);
    await sleep(20);
    h.push([Row.insert('a')]);
    expect(show(h.out)).toEqual(['+I["a",1]', '-U["a",1]', '+U["a",2]']);
  });

  it('a regular join no longer matches rows whose state expired', async () => {
    const spec = { joinType: 'INNER' as const, leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2, condition: null, mode: 'streaming' as const, stateTtlMs: 30 };
    const h = await new OperatorHarness(new JoinOperator(spec)).open();
    h.push([Row.insert(1, 'old')], 0);
    await sleep(60);
    h.push([Row.insert(1, 'l')], 0);
    h.push([Row.insert(1, 'r')], 1);
    expect(show(h.out)).toEqual(['+I[1,"l",1,"r"]']);
  });

  it('an outer join frees expired keys it never reads again, and pads rows whose partner expired', async () => {
    const spec = { joinType: 'LEFT' as const, leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2, condition: null, mode: 'streaming' as const, stateTtlMs: 30 };
    const h = await new OperatorHarness(new JoinOperator(spec)).open();
    h.push([Row.insert(1, 'a')], 0);
    h.push([Row.insert(1, 'x')], 1);
    expect([...h.keyed.keys('left')]).toHaveLength(1);
    await sleep(60);
    // Key 2's rows make the operator sweep: key 1's expired rows on both sides are dropped.
    h.push([Row.insert(2, 'b')], 0);
    expect([...h.keyed.keys('left')]).toHaveLength(1);
    expect([...h.keyed.keys('right')]).toHaveLength(0);
    h.push([Row.insert(1, 'c')], 0);
    expect(show(h.out)).toEqual(['+I[1,"a",null,null]', '-D[1,"a",null,null]', '+I[1,"a",1,"x"]', '+I[2,"b",null,null]', '+I[1,"c",null,null]']);
  });
});


describe('table.exec.state.ttl bounds the state of keys never seen again, without checkpoints', () => {
  // A GROUP BY over a stream of distinct keys (a datagen sequence): no key is read twice and no snapshot
  // is taken, so only the backends' incremental cleanup can free expired groups.
  // The bound on groups held: the heap backend expires in write order, exactly; the lmdb cache is swept in
  // cache order, a few slots per insert, so an expired slot waits up to one pass over the live ones.
  const backends: Array<[string, (clock: () => number) => KeyedStateBackend, number]> = [
    ['hashmap', (clock) => new HeapKeyedStateBackend(clock), 101_000],
    // A budget larger than all 300,000 groups: the cache never fills, so eviction frees nothing.
    ['lmdb', (clock) => new LmdbKeyedStateBackend({ cacheBytes: 512 << 20, localDir: undefined }, clock), 140_000],
  ];
  it.each(backends)('%s', async (_name, create, bound) => {
    let now = 0;
    const keyed = create(() => now);
    const h = new OperatorHarness(new GroupAggregateOperator([0], [count()], 'streaming', 1_000));
    await h.op.open({ ...h.ctx, keyedState: keyed });
    // Groups held in memory: the heap backend's entries (expired or not), the lmdb backend's cached slots.
    const held = (): number =>
      keyed instanceof LmdbKeyedStateBackend ? (keyed as unknown as { cached: number }).cached : [...keyed.keys('groups')].length;
    let most = 0;
    try {
      // 100 keys per ms of the clock, 1,000 ms TTL: about 100,000 groups live at any time, 300,000 in all.
      for (let k = 0; k < 300_000; k += 1_000) {
        now = k / 100;
        h.op.processBatch(Array.from({ length: 1_000 }, (_, i) => Row.insert(k + i)), 0);
        h.out.length = 0;
        if (k % 50_000 === 0) most = Math.max(most, held());
      }
      expect(most).toBeLessThanOrEqual(bound);
      expect(held()).toBeLessThanOrEqual(bound);
      // Nothing live was dropped: the newest key still counts on.
      h.op.processBatch([Row.insert(299_999)], 0);
      expect(show(h.out)).toEqual(['-U[299999,1]', '+U[299999,2]']);
    } finally {
      keyed.dispose?.();
    }
  });
});
