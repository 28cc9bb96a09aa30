import { describe, expect, it } from 'vitest';
import { ChangelogRows, MaterializedTable } from '../../../src/cli/render/live-rows.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';

const change = (kind: RowKind, ...fields: unknown[]): Row => Row.of(kind, fields);
const fieldsOf = (rows: readonly Row[]): unknown[][] => rows.map((r) => [...r.fields]);

describe('MaterializedTable', () => {
  it('applies updates and deletes to the oldest equal row, values compared as keys are (1.5 = 1.50)', () => {
    const t = new MaterializedTable(100);
    t.apply(change(RowKind.INSERT, 'a', 1));
    t.apply(change(RowKind.INSERT, 'b', new Decimal(15n, 1)));
    t.apply(change(RowKind.INSERT, 'a', 1));
    t.apply(change(RowKind.UPDATE_BEFORE, 'a', 1));
    t.apply(change(RowKind.UPDATE_AFTER, 'a', 2));
    t.apply(change(RowKind.DELETE, 'b', new Decimal(150n, 2)));
    t.apply(change(RowKind.DELETE, 'zz', 0));
    expect(t.size).toBe(2);
    expect(fieldsOf(t.slice(0, 10))).toEqual([
      ['a', 1],
      ['a', 2],
    ]);
    expect(t.slice(0, 10).every((r) => r.kind === RowKind.INSERT)).toBe(true);
    expect(t.at(1)?.fields[1]).toBe(2);
  });

  it('keeps at most max-table-result.rows rows, dropping the oldest', () => {
    const t = new MaterializedTable(3);
    for (let i = 1; i <= 5; i++) t.apply(change(RowKind.INSERT, i));
    t.apply(change(RowKind.DELETE, 4));
    t.apply(change(RowKind.INSERT, 6));
    t.apply(change(RowKind.INSERT, 7));
    expect(fieldsOf(t.slice(0, 10))).toEqual([[5], [6], [7]]);
  });

  it('follows a running aggregate over 100 000 keys in time linear in the changes', () => {
    const t = new MaterializedTable(1_000_000);
    const keys = 100_000;
    const started = performance.now();
    for (let k = 0; k < keys; k++) t.apply(change(RowKind.INSERT, k, 1));
    // Keys in a scattered order (7919 is prime to 100 000), as a stream sends them: a scan from the front
    // would not find them at once.
    for (let i = 0; i < keys; i++) {
      const k = (i * 7919) % keys;
      t.apply(change(RowKind.UPDATE_BEFORE, k, 1));
      t.apply(change(RowKind.UPDATE_AFTER, k, 2));
      // The view reads a page now and then; reading compacts the table.
      if (i % 10_000 === 0) t.slice(0, 20);
    }
    const ms = performance.now() - started;
    expect(t.size).toBe(keys);
    expect(fieldsOf(t.slice(0, 2))).toEqual([
      [0, 2],
      [7919, 2],
    ]);
    // A scan per retraction (the view before) takes 3 s for 20 000 keys here, growing with the square; this about 2 s for 100 000 under load.
    expect(ms).toBeLessThan(10_000);
  });
});

describe('ChangelogRows', () => {
  it('keeps every change with its kind, the latest maxRows of them, and counts the rest', () => {
    const c = new ChangelogRows(3);
    for (let i = 1; i <= 5000; i++) c.apply(change(i % 2 === 0 ? RowKind.DELETE : RowKind.INSERT, i));
    expect(c.size).toBe(3);
    expect(c.dropped).toBe(4997);
    expect(fieldsOf(c.slice(0, 10))).toEqual([[4998], [4999], [5000]]);
    expect(c.at(1)?.kind).toBe(RowKind.INSERT);
    expect(c.at(3)).toBeUndefined();
  });
});
