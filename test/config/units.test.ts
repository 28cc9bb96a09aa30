import { describe, expect, it } from 'vitest';
import { formatDuration, formatMemorySize, parseDuration, parseMemorySize } from '../../src/config/units.js';
import { formatList, formatMap, parseList, parseMap } from '../../src/config/structured-options.js';

describe('duration and memory units', () => {
  it('formats with the largest exact unit and parses back', () => {
    for (const ms of [0, 1, 500, 1500, 30_000, 300_000, 3_600_000, 172_800_000, 90_000]) {
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    }
    expect(formatDuration(30_000)).toBe('30 s');
    expect(formatDuration(300_000)).toBe('5 min');
    expect(formatDuration(1500)).toBe('1500 ms');
    expect(parseDuration('100 us')).toBe(0);
    expect(parseDuration('-1 s')).toBeUndefined();
    expect(parseDuration('s')).toBeUndefined();
    for (const b of [0, 1000, 1024, 65_536, 134_217_728, 1024 ** 3]) expect(parseMemorySize(formatMemorySize(b))).toBe(b);
    expect(formatMemorySize(134_217_728)).toBe('128 mb');
    expect(formatMemorySize(1000)).toBe('1000 bytes');
    expect(parseMemorySize('2 TB')).toBe(2 * 1024 ** 4);
    expect(parseMemorySize('1 zb')).toBeUndefined();
  });
});

describe('structured option strings', () => {
  it('round trips lists and maps with separators inside values', () => {
    const list = ['a', 'b;c', "it's", ''];
    expect(parseList(formatList(list))).toEqual(list);
    expect(parseList('')).toEqual([]);
    expect(parseList("'unterminated")).toBeUndefined();
    const map = { k: 'v', 'a:b': 'c,d', "q'": 'x' };
    expect(parseMap(formatMap(map))).toEqual(map);
    expect(parseMap('a:1, b:2')).toEqual({ a: '1', b: '2' });
    expect(parseMap('a:1:2')).toBeUndefined();
  });
});
