import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findLatestCompletedCheckpoint, pruneCheckpoints, readCheckpoint, writeCheckpoint,
} from '../../../src/runtime/checkpoint/checkpoint-storage.js';
import type { CompletedCheckpoint } from '../../../src/runtime/checkpoint/completed-checkpoint.js';
import { isSpilled, type OperatorSnapshotBytes, removeSpilled, spillSnapshot } from '../../../src/runtime/checkpoint/spilled-snapshot.js';
import { mergeOperatorSnapshots, operatorSnapshotBase } from '../../../src/runtime/checkpoint/incremental.js';
import { keyGroupOf, keyGroupRange } from '../../../src/runtime/key-groups.js';
import type { OperatorSnapshot } from '../../../src/runtime/operator-chain.js';
import { HeapKeyedStateBackend, type KeyedStateSnapshot } from '../../../src/runtime/state/heap-state-backend.js';
import type { KeyedStateBackend } from '../../../src/runtime/state/keyed-state-backend.js';
import { LmdbKeyedStateBackend } from '../../../src/runtime/state/lmdb-state-backend.js';
import { decodeState, encodeState } from '../../../src/runtime/state/state-codec.js';
import type { StateKey } from '../../../src/runtime/state/state.js';

const made: KeyedStateBackend[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const b of made.splice(0)) b.dispose?.();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'sluice-incr-'));
  dirs.push(d);
  return d;
};

async function open(engine: 'lmdb' | 'rocksdb', extra: { incremental?: boolean; fullEvery?: number; shardEntries?: number } = {}): Promise<LmdbKeyedStateBackend> {
  const b = new LmdbKeyedStateBackend({ engine, cacheBytes: 0, localDir: undefined, incremental: true, ...extra });
  made.push(b);
  await b.open();
  return b;
}

/** An operator's snapshot around keyed state, as the operator chain takes it. */
function operatorSnapshot(keyed: KeyedStateSnapshot, raw: unknown = undefined): OperatorSnapshot {
  return {
    ...(keyed.base === undefined ? {} : { base: keyed.base }),
    raw,
    keyed,
    operatorState: [],
    timers: { eventTime: [], processingTime: [] },
  };
}

/** An operator's snapshot bytes around keyed state, as the operator chain encodes them. */
function operatorBytes(keyed: KeyedStateSnapshot, raw: unknown = undefined): Uint8Array {
  return encodeState(operatorSnapshot(keyed, raw));
}

/** Every state's entries of an encoded operator snapshot, sorted by key, by state name. */
function contents(bytes: Uint8Array): Record<string, Array<[StateKey, unknown]>> {
  const s = decodeState(bytes) as OperatorSnapshot;
  expect(s.keyed.base).toBeUndefined();
  const out: Record<string, Array<[StateKey, unknown]>> = {};
  for (const r of s.keyed.states) (out[r.name] ??= []).push(...r.entries);
  for (const k of Object.keys(out)) out[k]!.sort((p, q) => String(p[0]).localeCompare(String(q[0])));
  return out;
}

/** A run of writes, removals and in-place changes over a few states, step `step` of it. */
function work(b: KeyedStateBackend, step: number): void {
  const sum = b.getState<number>('sum');
  const list = b.getListState<string>('list');
  const map = b.getMapState<string, number>('map');
  for (let k = 0; k < 300; k++) {
    // Step 0 writes every key; each later one a different sixth of them, removing some, and adds new keys.
    if (step !== 0 && (k + step) % 6 !== 0) continue;
    b.setCurrentKey(`k${k}`);
    sum.update((sum.value() ?? 0) + k + step);
    if (k % 7 === step % 7) sum.clear();
    list.add(`s${step}`);
    if (k % 11 === 0) list.clear();
    map.put(`m${step % 4}`, k);
  }
  for (let k = 0; k < 20; k++) {
    b.setCurrentKey(1_000 * (step + 1) + k);
    sum.update(step);
  }
}

describe.each(['lmdb', 'rocksdb'] as const)('incremental snapshots of the %s store', (engine) => {
  it('after a completed checkpoint holds only what changed, and merged onto its base equals a full snapshot', async () => {
    const b = await open(engine);
    const full = await open(engine, { incremental: false });
    const snaps: Uint8Array[] = [];
    for (let step = 0; step < 4; step++) {
      work(b, step);
      work(full, step);
      const keyed = b.snapshot(step + 1);
      const bytes = operatorBytes(keyed, { step });
      snaps.push(bytes);
      b.notifyCheckpointComplete(step + 1);
      expect(operatorSnapshotBase(bytes)).toBe(step === 0 ? undefined : step);
      const whole = operatorBytes(full.snapshot());
      expect(contents(mergeOperatorSnapshots(snaps))).toEqual(contents(whole));
      // The operator's own state is the newest's.
      expect((decodeState(mergeOperatorSnapshots(snaps)) as OperatorSnapshot).raw).toEqual({ step });
    }
    // A delta holds about a third of the keys of one state, not all of them.
    const delta = decodeState(snaps[3]!) as OperatorSnapshot;
    const sumEntries = delta.keyed.states.filter((r) => r.name === 'sum').flatMap((r) => [...r.entries]);
    const fullSum = contents(operatorBytes(full.snapshot())).sum!;
    expect(sumEntries.length).toBeGreaterThan(0);
    expect(sumEntries.length).toBeLessThan(fullSum.length / 2);
    expect(delta.keyed.states.some((r) => (r.removed ?? []).length > 0)).toBe(true);
  });

  it('never builds on a checkpoint that did not complete: the next delta covers the aborted one too', async () => {
    const b = await open(engine);
    const full = await open(engine, { incremental: false });
    work(b, 0);
    work(full, 0);
    const c1 = operatorBytes(b.snapshot(1));
    b.notifyCheckpointComplete(1);
    work(b, 1);
    work(full, 1);
    // Checkpoint 2 is taken and aborted (never notified); a savepoint (3) is never notified either.
    expect(operatorSnapshotBase(operatorBytes(b.snapshot(2)))).toBe(1);
    work(b, 2);
    work(full, 2);
    expect(operatorSnapshotBase(operatorBytes(b.snapshot(3)))).toBe(1);
    work(b, 3);
    work(full, 3);
    const c4 = operatorBytes(b.snapshot(4));
    expect(operatorSnapshotBase(c4)).toBe(1);
    expect(contents(mergeOperatorSnapshots([c1, c4]))).toEqual(contents(operatorBytes(full.snapshot())));
  });

  it('is full again every fullEvery-th checkpoint of a chain, with TTL states, without states, and after a restore', async () => {
    const b = await open(engine, { fullEvery: 3 });
    work(b, 0);
    const bases: Array<number | undefined> = [];
    for (let id = 1; id <= 7; id++) {
      work(b, id);
      bases.push(operatorSnapshotBase(operatorBytes(b.snapshot(id))));
      b.notifyCheckpointComplete(id);
    }
    expect(bases).toEqual([undefined, 1, 2, undefined, 4, 5, undefined]);
    const restored = await open(engine);
    restored.restore(decodeState(encodeState(b.snapshot())) as KeyedStateSnapshot);
    work(restored, 1);
    expect(restored.snapshot(20).base).toBeUndefined();
    // An operator without keyed state: whole (empty) snapshots, so it never holds other operators' bases on disk.
    const none = await open(engine);
    operatorBytes(none.snapshot(1));
    none.notifyCheckpointComplete(1);
    expect(none.snapshot(2).base).toBeUndefined();
    const ttl = await open(engine);
    ttl.getState({ name: 'short', ttlMs: 60_000 });
    work(ttl, 0);
    expect(ttl.snapshot(1).base).toBeUndefined();
    ttl.notifyCheckpointComplete(1);
    work(ttl, 1);
    expect(ttl.snapshot(2).base).toBeUndefined();
  });

  it('removes the markers a completed checkpoint covers, keeping those written since', async () => {
    const b = await open(engine);
    const v = b.getState<number>('v');
    // More keys than one removal batch (50,000).
    for (let k = 0; k < 120_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    operatorBytes(b.snapshot(1));
    for (let k = 0; k < 10; k++) {
      b.setCurrentKey(k);
      v.update(-k);
    }
    // Written after checkpoint 1's snapshot, before its completion is known: in the next delta all the same.
    b.notifyCheckpointComplete(1);
    const delta = decodeState(operatorBytes(b.snapshot(2))) as OperatorSnapshot;
    expect(delta.keyed.base).toBe(1);
    expect(delta.keyed.states.flatMap((r) => [...r.entries])).toEqual(Array.from({ length: 10 }, (_, k) => [k, -k]));
    b.notifyCheckpointComplete(2);
    // Gone from the store, not only skipped (markers are the keys from 0xff on; RocksDB removes them by range).
    const db = (b as unknown as { db: { getKeysCount(o: { start: Uint8Array }): number } }).db;
    expect(db.getKeysCount({ start: Buffer.from([0xff]) })).toBe(0);
    expect((decodeState(operatorBytes(b.snapshot(3))) as OperatorSnapshot).keyed.states).toEqual([]);
  });

  it('cuts delta records at shardEntries, and backends refuse a delta that was not merged', async () => {
    const b = await open(engine, { shardEntries: 50 });
    work(b, 0);
    b.snapshot(1);
    // Encoded (its streamed records drawn) before it completes, as at a barrier.
    b.notifyCheckpointComplete(1);
    work(b, 1);
    const delta = decodeState(operatorBytes(b.snapshot(2))) as OperatorSnapshot;
    expect(delta.keyed.states.every((r) => r.entries instanceof Map && r.entries.size <= 50)).toBe(true);
    const heap = new HeapKeyedStateBackend();
    expect(() => heap.restore(delta.keyed)).toThrow(/without being merged/);
    const other = await open(engine);
    expect(() => other.restore(delta.keyed)).toThrow(/without being merged/);
  });
});

describe('checkpoints holding deltas', () => {
  const jobId = 'b'.repeat(32);
  const checkpoint = (id: number, operators: OperatorSnapshotBytes[], isSavepoint = false): CompletedCheckpoint => ({
    jobId, checkpointId: id, isSavepoint, timestamp: id, parallelism: new Map([['v', 2]]), enumerators: new Map(), committables: [],
    path: undefined, layout: 'vertex', maxParallelism: 16,
    vertices: new Map(operators.map((op, i) => [`v#${i}`, { finished: false, splits: undefined, operators: [op], writerState: undefined }])),
  });

  /** Two subtasks' backends through checkpoints 1..n (each notified), written to `jobDir`; the expected final state. */
  async function run(engine: 'lmdb' | 'rocksdb', jobDir: string, n: number, fullEvery = 8, spillTo?: string): Promise<{ expected: HeapKeyedStateBackend[] }> {
    const subtasks = [await open(engine, { fullEvery }), await open(engine, { fullEvery })];
    const expected = [new HeapKeyedStateBackend(), new HeapKeyedStateBackend()];
    for (const b of [...subtasks, ...expected]) work(b, 0);
    for (let id = 1; id <= n; id++) {
      subtasks.forEach((b, i) => work(b, id * 2 + i));
      expected.forEach((b, i) => work(b, id * 2 + i));
      // Spilled to files at the barrier as the operator chain does for an on-disk backend, or encoded in memory.
      const ops = subtasks.map((b) => (spillTo === undefined ? operatorBytes(b.snapshot(id), { id }) : spillSnapshot(operatorSnapshot(b.snapshot(id), { id }), spillTo)));
      await writeCheckpoint(join(jobDir, `chk-${id}`), checkpoint(id, ops), { checkpointsDir: jobDir });
      for (const o of ops) if (isSpilled(o)) removeSpilled(o);
      await pruneCheckpoints(jobDir, 1, { incremental: true });
      for (const b of subtasks) b.notifyCheckpointComplete(id);
    }
    return { expected };
  }

  const sorted = (s: KeyedStateSnapshot): Record<string, Array<[StateKey, unknown]>> => {
    const out: Record<string, Array<[StateKey, unknown]>> = {};
    for (const r of s.states) (out[r.name] ??= []).push(...r.entries);
    for (const k of Object.keys(out)) out[k]!.sort((p, q) => String(p[0]).localeCompare(String(q[0])));
    return out;
  };
  const heapSnapshot = (b: KeyedStateBackend): KeyedStateSnapshot => decodeState(encodeState(b.snapshot())) as KeyedStateSnapshot;

  it.each(['lmdb', 'rocksdb'] as const)('restore the chain (%s): same parallelism, rescaled, into the heap and the other stores; retention keeps the bases', async (engine) => {
    const jobDir = tmp();
    const { expected } = await run(engine, jobDir, 5);
    // Retention of 1 kept chk-5, chk-4 (a checkpoint in flight may build on it) and the chain they need.
    expect(readdirSync(jobDir).sort()).toEqual(['chk-1', 'chk-2', 'chk-3', 'chk-4', 'chk-5']);
    const cp = await readCheckpoint(join(jobDir, 'chk-5'));
    if (cp.layout !== 'vertex') throw new Error('vertex layout expected');
    const parts = [0, 1].map((i) => decodeState(cp.vertices.get(`v#${i}`)!.operators[0]!) as OperatorSnapshot);
    expect(parts.map((p) => p.raw)).toEqual([{ id: 5 }, { id: 5 }]);
    for (const target of ['heap', 'lmdb', 'rocksdb'] as const) {
      for (let i = 0; i < 2; i++) {
        const b = target === 'heap' ? new HeapKeyedStateBackend() : await open(target);
        b.restore(parts[i]!.keyed);
        expect(sorted(heapSnapshot(b))).toEqual(sorted(heapSnapshot(expected[i]!)));
      }
      // Rescaled to 3: each new subtask takes its key groups of both old ones.
      const all = new HeapKeyedStateBackend();
      all.restoreRescaled(expected.map(heapSnapshot), () => true);
      const union: Record<string, Array<[StateKey, unknown]>> = {};
      for (let j = 0; j < 3; j++) {
        const b = target === 'heap' ? new HeapKeyedStateBackend() : await open(target);
        const { start, end } = keyGroupRange(16, 3, j);
        b.restoreRescaled(parts.map((p) => p.keyed), (k) => keyGroupOf(k, 16) >= start && keyGroupOf(k, 16) <= end);
        for (const [name, entries] of Object.entries(sorted(heapSnapshot(b)))) (union[name] ??= []).push(...entries);
      }
      for (const k of Object.keys(union)) union[k]!.sort((p, q) => String(p[0]).localeCompare(String(q[0])));
      expect(union).toEqual(sorted(heapSnapshot(all)));
    }
  });

  it.each(['lmdb', 'rocksdb'] as const)('a chain of snapshots spilled to files at the barrier (%s) is written and restores as one held in memory', async (engine) => {
    const jobDir = tmp();
    const spill = tmp();
    const { expected } = await run(engine, jobDir, 5, 3, spill);
    const cp = await readCheckpoint(join(jobDir, 'chk-5'));
    if (cp.layout !== 'vertex') throw new Error('vertex layout expected');
    for (let i = 0; i < 2; i++) {
      const part = decodeState(cp.vertices.get(`v#${i}`)!.operators[0] as Uint8Array) as OperatorSnapshot;
      expect(part.raw).toEqual({ id: 5 });
      const b = await open(engine);
      b.restore(part.keyed);
      expect(sorted(heapSnapshot(b))).toEqual(sorted(heapSnapshot(expected[i]!)));
    }
    // Every spilled file was removed once written.
    expect(readdirSync(join(spill, 'sluice-snapshot'))).toEqual([]);
  });

  it('a full checkpoint every fullEvery-th lets retention drop the older chain', async () => {
    const jobDir = tmp();
    await run('rocksdb', jobDir, 7, 3);
    // Checkpoints 1, 4, 7 are full: chk-7 needs nothing; chk-6 (kept for one in flight) needs 4 and 5.
    expect(readdirSync(jobDir).sort()).toEqual(['chk-4', 'chk-5', 'chk-6', 'chk-7']);
    await expect(readCheckpoint(join(jobDir, 'chk-6'))).resolves.toMatchObject({ checkpointId: 6 });
  });

  it('a savepoint taken as a delta is written whole and stands alone', async () => {
    const jobDir = tmp();
    const b = await open('lmdb');
    const expected = new HeapKeyedStateBackend();
    work(b, 0);
    work(expected, 0);
    await writeCheckpoint(join(jobDir, 'chk-1'), checkpoint(1, [operatorBytes(b.snapshot(1))]), { checkpointsDir: jobDir });
    b.notifyCheckpointComplete(1);
    work(b, 1);
    work(expected, 1);
    const delta = operatorBytes(b.snapshot(2));
    expect(operatorSnapshotBase(delta)).toBe(1);
    const sp = join(tmp(), 'savepoint-x');
    await writeCheckpoint(sp, checkpoint(2, [delta], true), { checkpointsDir: jobDir });
    rmSync(jobDir, { recursive: true, force: true });
    const cp = await readCheckpoint(sp);
    if (cp.layout !== 'vertex') throw new Error('vertex layout expected');
    const bytes = cp.vertices.get('v#0')!.operators[0]!;
    expect(operatorSnapshotBase(bytes)).toBeUndefined();
    expect(sorted((decodeState(bytes) as OperatorSnapshot).keyed)).toEqual(sorted(heapSnapshot(expected)));
  });

  it('a checkpoint whose base is torn or gone is passed over on resume; one whose base is gone cannot be written', async () => {
    const jobDir = tmp();
    await run('rocksdb', jobDir, 3);
    // chk-3 builds on chk-2, which builds on chk-1: tearing chk-1 leaves chk-3 and chk-2 unreadable.
    writeFileSync(join(jobDir, 'chk-1', 'vertex-0.state'), 'torn');
    const skipped: string[] = [];
    expect(await findLatestCompletedCheckpoint(jobDir, (p) => skipped.push(p))).toBeUndefined();
    expect(skipped).toEqual([join(jobDir, 'chk-3'), join(jobDir, 'chk-2'), join(jobDir, 'chk-1')]);
    await expect(readCheckpoint(join(jobDir, 'chk-3'))).rejects.toThrow(/builds on checkpoint .*chk-1/);
    rmSync(join(jobDir, 'chk-2'), { recursive: true });
    expect(existsSync(join(jobDir, 'chk-2'))).toBe(false);
    // A delta on checkpoint 2 (gone) fails to be written rather than written unreadable.
    const lone = await open('rocksdb');
    work(lone, 0);
    lone.snapshot(2);
    lone.notifyCheckpointComplete(2);
    work(lone, 1);
    const delta = operatorBytes(lone.snapshot(9));
    await expect(writeCheckpoint(join(jobDir, 'chk-9'), checkpoint(9, [delta, delta]), { checkpointsDir: jobDir })).rejects.toThrow(/builds on checkpoint 2/);
  });
});
