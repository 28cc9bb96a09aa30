import { describe, expect, it } from 'vitest';
import { ChangelogNormalizeOperator } from '../../src/table-runtime/changelog-normalize-operator.js';
import type { ChangelogNormalizeSpec } from '../../src/table-runtime/changelog-normalize-operator.js';
import { Row } from '../../src/types/row.js';
import { RowKind, rowKindShortString } from '../../src/types/row-kind.js';
import { hashFields } from '../../src/types/values/equality.js';
import { OperatorHarness } from './fake-context.js';

const show = (rows: readonly Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)}${JSON.stringify(r.fields)}`);
const ua = (...f: unknown[]): Row => new Row(RowKind.UPDATE_AFTER, f);
const del = (...f: unknown[]): Row => new Row(RowKind.DELETE, f);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function normalize(spec: Partial<ChangelogNormalizeSpec> = {}): Promise<OperatorHarness> {
  return new OperatorHarness(new ChangelogNormalizeOperator({ keys: [0], generateUpdateBefore: true, stateTtlMs: 0, ...spec })).open();
}

describe('ChangelogNormalizeOperator', () => {
  it('emits +I for a new key and -U last / +U new for an update, whatever kind the source gave', async () => {
    const h = await normalize();
    h.push([Row.insert('a', 1), ua('b', 2), Row.insert('a', 5), ua('a', 6)]);
    expect(show(h.out)).toEqual(['+I["a",1]', '+I["b",2]', '-U["a",1]', '+U["a",5]', '-U["a",5]', '+U["a",6]']);
  });

  it('turns a key-only delete into -D of the full last row and forgets the key', async () => {
    const h = await normalize();
    h.push([Row.insert('a', 1), del('a', null), Row.insert('a', 2)]);
    expect(show(h.out)).toEqual(['+I["a",1]', '-D["a",1]', '+I["a",2]']);
  });

  it('ignores a delete or -U of a key it never saw', async () => {
    const h = await normalize();
    h.push([del('x', null), new Row(RowKind.UPDATE_BEFORE, ['y', 1])]);
    expect(h.out).toEqual([]);
  });

  it('treats an -U of a known key as a delete of its last row (no +U may follow)', async () => {
    const h = await normalize();
    h.push([Row.insert('a', 1), new Row(RowKind.UPDATE_BEFORE, ['a', 1])]);
    expect(show(h.out)).toEqual(['+I["a",1]', '-D["a",1]']);
  });

  it('drops an identical repeat of the last row when no state TTL is set', async () => {
    const h = await normalize();
    h.push([Row.insert('a', 1), ua('a', 1), ua('a', 1), ua('a', 2)]);
    expect(show(h.out)).toEqual(['+I["a",1]', '-U["a",1]', '+U["a",2]']);
  });

  it('emits an identical repeat when a state TTL is set, and starts an expired key again with +I', async () => {
    const h = await normalize({ stateTtlMs: 30 });
    h.push([Row.insert('a', 1), ua('a', 1)]);
    expect(show(h.out)).toEqual(['+I["a",1]', '-U["a",1]', '+U["a",1]']);
    await sleep(60);
    h.push([ua('a', 3)]);
    expect(show(h.out).slice(3)).toEqual(['+I["a",3]']);
  });

  it('emits no -U when the consumers take updates by key', async () => {
    const h = await normalize({ generateUpdateBefore: false });
    h.push([Row.insert('a', 1), ua('a', 2), del('a', null)]);
    expect(show(h.out)).toEqual(['+I["a",1]', '+U["a",2]', '-D["a",2]']);
  });

  it('keys by a composite primary key and keeps keys colliding on the hash apart', async () => {
    const h = await normalize({ keys: [0, 1] });
    h.push([Row.insert('a', 1, 'x'), Row.insert('a', 2, 'y'), ua('a', 1, 'z')]);
    expect(show(h.out)).toEqual(['+I["a",1,"x"]', '+I["a",2,"y"]', '-U["a",1,"x"]', '+U["a",1,"z"]']);
    // Two keys in one state slot (as after a hash collision): each still finds its own row.
    const c = await normalize();
    const slot = hashFields(['p'], [0]);
    c.keyed.setCurrentKey(slot);
    c.keyed.getState<unknown[][]>('last-rows').update([['q', 7]]);
    const op = c.op as ChangelogNormalizeOperator;
    op.processBatch([Row.insert('p', 1), ua('p', 2)]);
    expect(show(c.out)).toEqual(['+I["p",1]', '-U["p",1]', '+U["p",2]']);
    expect(c.keyed.getState<unknown[][]>('last-rows').value()).toEqual([['q', 7], ['p', 2]]);
  });

  it('emits copies, so a consumer that reuses the arrays cannot change the state', async () => {
    const h = await normalize();
    h.push([Row.insert('a', 1)]);
    h.out[0]!.fields[1] = 99;
    h.push([ua('a', 2)]);
    expect(show(h.out.slice(1))).toEqual(['-U["a",1]', '+U["a",2]']);
  });
});
