// A rank whose input the planner narrowed (prune-rank-input.ts) restores the rows a checkpoint of the
// unpruned plan holds: they are narrowed as they are read, so the rows it emits have the new width.
import { describe, expect, it } from 'vitest';
import { RankOperator } from '../../src/table-runtime/rank-operator.js';
import type { RankSpec } from '../../src/table-runtime/rank-operator.js';
import { decodeValue, encodeValue } from '../../src/types/values/state-codec.js';
import { Row } from '../../src/types/row.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import { OperatorHarness } from './fake-context.js';

const show = (rows: Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)}${JSON.stringify(r.fields)}`);

describe('a pruned rank restoring a checkpoint of the unpruned plan', () => {
  it('narrows the restored rows, and emits and ranks them as rows of the new width', async () => {
    // Unpruned: rows (k, unread, score, payload), Top-2 per k by score DESC.
    const wide: RankSpec = { partitionKeys: [0], orderKeys: [{ index: 2, descending: true, nullsFirst: false }], limit: 2, outputRankNumber: false, mode: 'streaming', insertOnlyInput: true };
    const before = await new OperatorHarness(new RankOperator(wide)).open();
    before.push([Row.insert('a', 'x1', 10, 'p1'), Row.insert('a', 'x2', 30, 'p2'), Row.insert('b', 'x3', 5, 'p3')]);
    expect(show(before.out)).toEqual(['+I["a","x1",10,"p1"]', '+I["a","x2",30,"p2"]', '+I["b","x3",5,"p3"]']);
    const checkpoint = decodeValue(encodeValue(before.keyed.snapshot())) as ReturnType<typeof before.keyed.snapshot>;

    // Pruned: the planner dropped column 1; rows are (k, score, payload).
    const narrow: RankSpec = { ...wide, orderKeys: [{ index: 1, descending: true, nullsFirst: false }], restoredRows: { width: 4, kept: [0, 2, 3] } };
    const after = new OperatorHarness(new RankOperator(narrow));
    after.keyed.restore(checkpoint);
    await after.open();
    after.push([Row.insert('a', 20, 'p4'), Row.insert('b', 1, 'p5'), Row.insert('b', 7, 'p6')]);
    // 20 displaces 10 from a's top two; b keeps 5 and gains 7, 1 stays out.
    expect(show(after.out)).toEqual(['-D["a",10,"p1"]', '+I["a",20,"p4"]', '+I["b",1,"p5"]', '-D["b",1,"p5"]', '+I["b",7,"p6"]']);
  });
});
