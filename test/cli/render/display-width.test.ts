import { describe, expect, it } from 'vitest';
import { columnSlice, displayWidth, wrapColumns } from '../../../src/cli/render/display-width.js';
import { TableauPrinter } from '../../../src/cli/render/tableau.js';
import { Row } from '../../../src/types/row.js';
import { DataTypes } from '../../../src/types/data-types.js';

describe('displayWidth', () => {
  it('counts East Asian wide characters and emoji as two columns, everything else as one', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('数据流')).toBe(6);
    expect(displayWidth('한국어')).toBe(6);
    expect(displayWidth('ＡＢ')).toBe(4);
    expect(displayWidth('😀')).toBe(2);
    expect(displayWidth('café')).toBe(4);
    expect(displayWidth('ｶﾀｶﾅ')).toBe(4);
  });

  it('counts combining marks, zero-width joiners and variation selectors as no column', () => {
    expect(displayWidth('cafe\u0301')).toBe(4); // e + COMBINING ACUTE ACCENT
    expect(displayWidth('\u0915\u094d\u0937')).toBe(2); // Devanagari KA + VIRAMA + SSA
    expect(displayWidth('a\u200bb')).toBe(2);
    expect(displayWidth('\u2764\ufe0f')).toBe(1);
    expect(columnSlice('e\u0301x', 0, 1)).toBe('e\u0301');
    expect(wrapColumns('e\u0301e\u0301', 1)).toEqual(['e\u0301', 'e\u0301']);
  });

  it('slices by column, a wide character cut by an edge becoming a space', () => {
    expect(columnSlice('a数b', 0, 2)).toBe('a ');
    expect(columnSlice('a数b', 1, 3)).toBe('数');
    expect(columnSlice('a数b', 2, 4)).toBe(' b');
    expect(columnSlice('a数b', 1)).toBe('数b');
    expect(displayWidth(columnSlice('数据流处理', 1, 8))).toBe(7);
  });

  it('wraps without splitting a wide character', () => {
    expect(wrapColumns('数据流', 3)).toEqual(['数', '据', '流']);
    expect(wrapColumns('ab数据', 3)).toEqual(['ab', '数', '据']);
    expect(wrapColumns('', 3)).toEqual(['']);
  });
});

describe('TableauPrinter with wide characters', () => {
  it('aligns the borders, as Flink sizes columns by display width', () => {
    const columns = [
      { name: 'name', type: DataTypes.STRING() },
      { name: 'n', type: DataTypes.INT() },
    ];
    const text = TableauPrinter.render(columns, [Row.insert('数据流', 1), Row.insert('ab', 22)], { maxColumnWidth: 30, streaming: false });
    const lines = text.split('\n').filter((l) => l.startsWith('+') || l.startsWith('|'));
    expect(new Set(lines.map(displayWidth)).size).toBe(1);
    expect(lines).toContain('| 数据流 |  1 |');
  });

  it('aligns the borders around combining marks', () => {
    const columns = [{ name: 's', type: DataTypes.STRING() }];
    const text = TableauPrinter.render(columns, [Row.insert('Zoe\u0308'), Row.insert('Zoey')], { maxColumnWidth: 30, streaming: false });
    const lines = text.split('\n').filter((l) => l.startsWith('+') || l.startsWith('|'));
    expect(new Set(lines.map(displayWidth)).size).toBe(1);
  });

  it('cuts a wide value to the maximum column width by columns', () => {
    const columns = [{ name: 's', type: DataTypes.STRING() }];
    const text = TableauPrinter.render(columns, [Row.insert('数据流处理引擎')], { maxColumnWidth: 8, streaming: false });
    expect(text).toContain('|  数据... |');
  });
});
