import { describe, expect, it } from 'vitest';
import { Row } from '../../../src/types/row.js';
import { OperatorChain, type ChainTail, type OperatorSnapshot } from '../../../src/runtime/operator-chain.js';
import { decodeState, encodeState, registerStateClass } from '../../../src/runtime/state/state-codec.js';
import type { FiredTimer, OperatorContext, OperatorFactory } from '../../../src/runtime/index.js';
import type { StateBackendSettings } from '../../../src/runtime/state/keyed-state-backend.js';
import { isSpilled, removeSpilled, snapshotBytes } from '../../../src/runtime/checkpoint/spilled-snapshot.js';

/** The chain's snapshot in memory: an on-disk backend's is spilled to a file at the barrier, read back (and removed) here. */
function taken(chain: OperatorChain, checkpointId: number): Uint8Array[] {
  return chain.snapshot(checkpointId).map((o) => {
    const bytes = snapshotBytes(o);
    if (isSpilled(o)) removeSpilled(o);
    return bytes;
  });
}

class Money {
  constructor(readonly cents: bigint) {}
}
registerStateClass('test.Money', Money, (m) => m.cents, (v) => new Money(v as bigint));

/** Writes one of every state kind per key and registers timers; records fired timers. */
function statefulOp(fired: FiredTimer[]): OperatorFactory {
  return {
    name: 'stateful',
    create() {
      let ctx!: OperatorContext;
      let raw: unknown;
      return {
        initializeState(restored) {
          raw = restored;
        },
        open(c) {
          ctx = c;
        },
        processBatch(rows) {
          const v = ctx.keyedState.getState<Money>('sum');
          const l = ctx.keyedState.getListState<Row>('rows');
          const m = ctx.keyedState.getMapState<bigint, string>('names');
          const ops = ctx.operatorState.getListState<number>('offsets');
          for (const r of rows) {
            const key = r.fields[0] as string;
            ctx.keyedState.setCurrentKey(key);
            v.update(new Money((v.value()?.cents ?? 0n) + (r.fields[1] as bigint)));
            l.add(r);
            m.put(r.fields[1] as bigint, `n${String(r.fields[1])}`);
            ctx.timerService.registerEventTimeTimer(Number(r.fields[1]) * 10);
          }
          ops.add(rows.length);
        },
        onTimer(t) {
          fired.push(t);
        },
        snapshotState() {
          return { raw: 'private', restoredWas: raw };
        },
      };
    },
  };
}

const tail: ChainTail = { collect() {}, collectColumns() {}, emitWatermark() {} };
const backends: StateBackendSettings[] = [
  { type: 'hashmap' },
  { type: 'lmdb', engine: 'lmdb', cacheBytes: 0, localDir: undefined },
  { type: 'lmdb', engine: 'rocksdb', cacheBytes: 0, localDir: undefined },
];

describe.each(backends)('state snapshot and restore ($type backend, $engine store)', (stateBackend) => {
  const env = { subtaskIndex: 0, parallelism: 1, attemptNumber: 0, config: new Map<string, string>(), stateBackend, awaitBeforeNextBatch() {} };

  it('restores value, list, map, operator list state, timers and raw state through the checkpoint codec', async () => {
    const firedBefore: FiredTimer[] = [];
    const chain = new OperatorChain([statefulOp(firedBefore)], tail, env);
    await chain.open(undefined);
    chain.processBatch([Row.insert('k1', 1n), Row.insert('k2', 2n), Row.insert('k1', 3n)], 0);
    chain.processWatermark(15, 0);
    expect(firedBefore.map((t) => [t.key, t.timestamp])).toEqual([['k1', 10]]);
    const snap = taken(chain, 7);

    const fired: FiredTimer[] = [];
    let seen!: OperatorContext;
    const probe: OperatorFactory = { name: 'probe', create: () => ({ open(c) { seen = c; }, processBatch() {} }) };
    const restored = new OperatorChain([statefulOp(fired), probe], tail, env);
    await restored.open([{ parts: [snap[0]!], rescale: undefined }]);
    expect(seen).toBeDefined();
    const again = decodeState(taken(restored, 8)[0]!) as OperatorSnapshot;
    expect(again.raw).toEqual({ raw: 'private', restoredWas: { raw: 'private', restoredWas: undefined } });
    const keyed = new Map(again.keyed.states.map((s) => [s.name, new Map(s.entries)]));
    const sum = keyed.get('sum')!.get('k1') as Money;
    expect(sum).toBeInstanceOf(Money);
    expect(sum.cents).toBe(4n);
    const rows = keyed.get('rows')!.get('k1') as Row[];
    expect(rows[1]).toBeInstanceOf(Row);
    expect(rows.map((r) => r.fields[1])).toEqual([1n, 3n]);
    expect(keyed.get('names')!.get('k2')).toEqual(new Map([[2n, 'n2']]));
    expect(again.operatorState).toEqual([['offsets', [3]]]);
    // The timers that had not fired survive the restore and fire on the next watermark.
    restored.processWatermark(100, 0);
    expect(fired.map((t) => [t.key, t.timestamp]).sort()).toEqual([['k1', 30], ['k2', 20]]);
  });

  it('a snapshot holds the state as of the barrier, though operators mutate their accumulators in place afterwards', async () => {
    // An accumulator object updated in place, as the group aggregate and the built-in aggregates do.
    const counting: OperatorFactory = {
      name: 'counting',
      create() {
        let ctx!: OperatorContext;
        return {
          open(c) {
            ctx = c;
          },
          processBatch(rows) {
            const acc = ctx.keyedState.getState<{ count: number; sum: bigint; seen: bigint[] }>('acc');
            for (const r of rows) {
              ctx.keyedState.setCurrentKey(r.fields[0] as string);
              let a = acc.value();
              if (a === undefined) acc.update((a = { count: 0, sum: 0n, seen: [] }));
              a.count++;
              a.sum += r.fields[1] as bigint;
              a.seen.push(r.fields[1] as bigint);
            }
          },
        };
      },
    };
    const chain = new OperatorChain([counting], tail, env);
    await chain.open(undefined);
    chain.processBatch([Row.insert('k', 1n), Row.insert('k', 2n)], 0);
    const snap = taken(chain, 1);
    chain.processBatch([Row.insert('k', 10n), Row.insert('j', 5n)], 0);

    const read = (bytes: Uint8Array): unknown[] => [...(decodeState(bytes) as OperatorSnapshot).keyed.states[0]!.entries];
    expect(read(snap[0]!)).toEqual([['k', { count: 2, sum: 3n, seen: [1n, 2n] }]]);
    // Restoring twice (an in-process restart after a failure, then another) gives fresh objects each time.
    for (let i = 0; i < 2; i++) {
      const restored = new OperatorChain([counting], tail, env);
      await restored.open(snap.map((b) => ({ parts: [b], rescale: undefined })));
      restored.processBatch([Row.insert('k', 100n)], 0);
      expect(read(taken(restored, 2)[0]!)).toEqual([['k', { count: 3, sum: 103n, seen: [1n, 2n, 100n] }]]);
    }
  });
});
