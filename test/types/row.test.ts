import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/types/decimal.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';

describe('Row printing', () => {
  it('toString() prints the change kind and the fields as Flink does', () => {
    expect(Row.insert(1, 'a').toString()).toBe('+I[1, a]');
    expect(Row.of(RowKind.UPDATE_BEFORE, [2n, null]).toString()).toBe('-U[2, null]');
    expect(Row.of(RowKind.UPDATE_AFTER, [true, 1.5]).toString()).toBe('+U[true, 1.5]');
    expect(Row.of(RowKind.DELETE, []).toString()).toBe('-D[]');
    expect(`${Row.insert('x')}`).toBe('+I[x]');
  });

  it('prints nested values: arrays and ROW fields in brackets, maps as {k=v}, bytes signed, decimals exactly', () => {
    const row = Row.insert([1, null, 3], ['x', [2n]], new Map<string, number>([['k', 1], ['j', 2]]), new Uint8Array([1, 255]), Decimal.parse('12.30'));
    expect(row.toString()).toBe('+I[[1, null, 3], [x, [2]], {k=1, j=2}, [1, -1], 12.30]');
  });

  it('console.log and util.inspect show the same text instead of the object internals', () => {
    const row = Row.of(RowKind.UPDATE_AFTER, [7, 'b']);
    expect(inspect(row)).toBe('+U[7, b]');
    expect(inspect({ rows: [row] })).toBe('{ rows: [ +U[7, b] ] }');
  });
});
