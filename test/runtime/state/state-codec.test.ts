import { describe, expect, it } from 'vitest';
import { decodeState, encodeState } from '../../../src/runtime/state/state-codec.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';

describe('state codec', () => {
  it('restores DECIMAL values as Decimal, also inside rows, arrays and maps', () => {
    const d = Decimal.parse('-12345678901234567890.125');
    const back = decodeState(encodeState({ d, row: new Row(RowKind.UPDATE_AFTER, [d, 1n]), list: [d], map: new Map([['k', d]]) })) as {
      d: unknown;
      row: Row;
      list: unknown[];
      map: Map<string, unknown>;
    };
    for (const v of [back.d, back.row.fields[0], back.list[0], back.map.get('k')]) {
      expect(v).toBeInstanceOf(Decimal);
      expect((v as Decimal).toString()).toBe('-12345678901234567890.125');
      expect((v as Decimal).scale).toBe(3);
    }
    expect(back.row.kind).toBe(RowKind.UPDATE_AFTER);
    expect(back.row.fields[1]).toBe(1n);
  });
});
