// Unaligned checkpoints (issue #19 item 3): what a checkpoint keeps of the rows in flight, and how a restore hands
// them back. The runtime's behaviour under failure is shown by the crash trials of test/e2e/crash/unaligned.test.ts,
// which run on worker threads, where barriers really do arrive at different moments on different channels.
import { describe, expect, it } from 'vitest';
import type { CompletedCheckpoint, TaskSnapshot } from '../../../src/runtime/checkpoint/completed-checkpoint.js';
import { copyInputRows, decodeInFlight, encodeInFlight } from '../../../src/runtime/checkpoint/in-flight-rows.js';
import { redistributeInFlight } from '../../../src/runtime/checkpoint/in-flight-rescale.js';
import { planTaskRestores } from '../../../src/runtime/checkpoint/task-restore.js';
import { keyGroupOf, subtaskOfKeyGroup } from '../../../src/runtime/key-groups.js';
import { findUnclaimedState } from '../../../src/runtime/checkpoint/unclaimed-state.js';
import { splitTaskSnapshot } from '../../../src/runtime/checkpoint/vertex-state.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';

const rows = [new Row(RowKind.INSERT, [1, 'a', Decimal.parse('1.50')]), new Row(RowKind.UPDATE_BEFORE, [2n, null, [1, 2]])];

/** A checkpoint of a keyed vertex `agg` (with a sink `snk` chained behind it) at parallelism 2, holding rows in flight. */
function checkpoint(): CompletedCheckpoint {
  const vertices = new Map<string, TaskSnapshot>();
  for (let i = 0; i < 2; i++) {
    const task: TaskSnapshot = { finished: false, splits: undefined, operators: [new Uint8Array([i]), new Uint8Array([9])], writerState: undefined, inFlight: encodeInFlight([{ inputIndex: 0, rows }]) };
    const [agg, snk] = splitTaskSnapshot(task, [{ id: 'agg', operators: 1 }, { id: 'snk', operators: 1 }]);
    vertices.set(`agg#${i}`, agg!);
    vertices.set(`snk#${i}`, snk!);
  }
  return {
    layout: 'vertex', jobId: 'j', checkpointId: 7, isSavepoint: false, timestamp: 0, maxParallelism: 128, enumerators: new Map(), committables: [], path: undefined,
    parallelism: new Map([['agg', 2], ['snk', 2]]),
    vertices,
  };
}

describe('unaligned checkpoints', () => {
  it('encode rows in flight exactly, in order, input by input', () => {
    const back = decodeInFlight(encodeInFlight([{ inputIndex: 0, rows }, { inputIndex: 0, rows: [rows[0]!] }, { inputIndex: 1, rows: [rows[1]!] }]));
    expect(back.map((b) => [b.inputIndex, b.rows.length])).toEqual([[0, 3], [1, 1]]);
    expect(back[0]!.rows[1]!.kind).toBe(RowKind.UPDATE_BEFORE);
    expect(back[0]!.rows[1]!.fields).toEqual([2n, null, [1, 2]]);
    expect((back[0]!.rows[0]!.fields[2] as Decimal).toString()).toBe('1.50');
  });

  it('copy rows in flight down to nested values when they are recorded: later changes by an operator do not reach the checkpoint', () => {
    const nested = [1, 2];
    const acc: unknown[] = [null, 5n];
    const original = [new Row(RowKind.INSERT, [7, nested, acc, Decimal.parse('1.50')])];
    const copy = copyInputRows(1, original);
    nested.push(3);
    acc[1] = 9n;
    original[0]!.fields[0] = 8;
    const back = decodeInFlight(encodeInFlight([copy]));
    expect(back[0]!.inputIndex).toBe(1);
    expect(back[0]!.rows[0]!.fields.slice(0, 3)).toEqual([7, [1, 2], [null, 5n]]);
    expect((back[0]!.rows[0]!.fields[3] as Decimal).toString()).toBe('1.50');
  });

  it('keep the rows with the head vertex of the task, which a restore at the same parallelism gets back', () => {
    const cp = checkpoint();
    expect(cp.vertices.get('agg#1')!.inFlight).toBeDefined();
    expect(cp.vertices.get('snk#1')!.inFlight).toBeUndefined();
    const restores = planTaskRestores(cp, [{ id: 'agg', name: 'GroupAggregate', parallelism: 2, chain: [{ id: 'agg', operators: 1 }, { id: 'snk', operators: 1 }] }], 128);
    const back = decodeInFlight(restores.get('agg#1')!.inFlight!);
    expect(back[0]!.rows.map((r) => r.fields[0])).toEqual([1, 2n]);
    // Chained differently, the sink runs as its own task: it never gets the rows, which entered at the aggregate.
    const split = planTaskRestores(cp, [{ id: 'agg', name: 'GroupAggregate', parallelism: 2, chain: [{ id: 'agg', operators: 1 }] }, { id: 'snk', name: 'Sink', parallelism: 2, chain: [{ id: 'snk', operators: 1 }] }], 128);
    expect(split.get('agg#0')!.inFlight).toBeDefined();
    expect(split.get('snk#0')?.inFlight).toBeUndefined();
  });

  it('share the rows in flight out by key group when the task is restored at another parallelism', () => {
    // Keyed on the first field: 300 keys, each in flight twice, spread over the old subtasks as a producer would.
    const key = (r: Row) => Number(r.fields[0]);
    const keyed = new Map([[0, [{ kind: 'hash' as const, key }]]]);
    const maxP = 128;
    const rowsOf = (i: number, oldP: number) => {
      const out: Row[] = [];
      for (let round = 0; round < 2; round++)
        for (let k = 0; k < 300; k++) if (subtaskOfKeyGroup(keyGroupOf(k, maxP), maxP, oldP) === i) out.push(new Row(RowKind.INSERT, [k, round]));
      return out;
    };
    const shared = redistributeInFlight([0, 1].map((i) => encodeInFlight([{ inputIndex: 0, rows: rowsOf(i, 2) }])), keyed, 3, maxP);
    if (typeof shared === 'string') throw new Error(shared);
    const got = shared.map((d) => (d === undefined ? [] : decodeInFlight(d).flatMap((b) => b.rows.map((r) => r.fields as number[]))));
    // Every row once, each with the subtask that owns its key group at parallelism 3, a key's rows in their order.
    expect(got.flat().length).toBe(600);
    got.forEach((rows, i) => {
      for (const [k] of rows) expect(subtaskOfKeyGroup(keyGroupOf(k, maxP), maxP, 3)).toBe(i);
      for (let k = 0; k < 300; k++) {
        const rounds = rows.filter((r) => r[0] === k).map((r) => r[1]);
        if (rounds.length > 0) expect(rounds).toEqual([0, 1]);
      }
    });
  });

  it('share rows of an unkeyed input round robin, and refuse a broadcast input, naming the task, the checkpoint and what to do', () => {
    const old = [0, 1].map((i) => encodeInFlight([{ inputIndex: 1, rows: [new Row(RowKind.INSERT, [i])] }]));
    const shared = redistributeInFlight(old, new Map([[1, [{ kind: 'rebalance' as const }]]]), 3, 128);
    if (typeof shared === 'string') throw new Error(shared);
    expect(shared.map((d) => (d === undefined ? [] : decodeInFlight(d).flatMap((b) => b.rows.map((r) => [b.inputIndex, r.fields[0]]))))).toEqual([[[1, 0]], [[1, 1]], []]);
    const broadcast = new Map([[0, [{ kind: 'broadcast' as const }]]]);
    expect(() =>
      planTaskRestores(checkpoint(), [{ id: 'agg', name: 'GroupAggregate', parallelism: 3, chain: [{ id: 'agg', operators: 1 }, { id: 'snk', operators: 1 }], inputs: broadcast }], 128),
    ).toThrow(
      "Cannot restore 'GroupAggregate' with parallelism 3: checkpoint 7 is unaligned and holds rows that were in flight to its 2 subtasks, and input 0 is broadcast, whose rows in flight cannot be shared out anew. Restore it with parallelism 2, or from a savepoint (savepoints are always aligned).",
    );
  });

  it('give a task restored at another parallelism its share of the rows in flight through planTaskRestores', () => {
    const restores = planTaskRestores(
      checkpoint(),
      [{ id: 'agg', name: 'GroupAggregate', parallelism: 1, chain: [{ id: 'agg', operators: 1 }, { id: 'snk', operators: 1 }], inputs: new Map([[0, [{ kind: 'rebalance' as const }]]]) }],
      128,
    );
    // Both old subtasks' rows, in the order of the old subtasks.
    expect(decodeInFlight(restores.get('agg#0')!.inFlight!).flatMap((b) => b.rows.map((r) => r.kind))).toEqual([RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.INSERT, RowKind.UPDATE_BEFORE]);
    expect(restores.get('agg#0')!.operators[0]!.parts.length).toBe(2);
  });

  it('count rows in flight as state a job without their vertex leaves unclaimed', () => {
    const unclaimed = findUnclaimedState(checkpoint(), new Map([['snk', { kind: 'sink', operators: 1, name: 'Sink' }]]));
    expect(unclaimed.map((u) => [u.vertexId, u.kinds.includes('rows in flight (unaligned checkpoint)')])).toEqual([['agg', true]]);
  });
});
