import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import { notNull } from '../../../src/types/logical-type.js';
import { conformsTo, explainNonConformance } from '../../../src/types/values/conformance.js';
import { ltzToTimestamp, timestampToLtz } from '../../../src/types/values/temporal.js';

describe('conformance to docs/values.md', () => {
  it('accepts the documented representations', () => {
    expect(conformsTo(1n, DataTypes.BIGINT())).toBe(true);
    expect(conformsTo(Decimal.parse('1.50'), DataTypes.DECIMAL(3, 2))).toBe(true);
    expect(conformsTo(new Uint8Array([1]), DataTypes.BYTES())).toBe(true);
    expect(conformsTo([1, 'a', null], DataTypes.ROW(FIELD('a', DataTypes.INT()), FIELD('b', DataTypes.STRING()), FIELD('c', DataTypes.DATE())))).toBe(true);
    expect(conformsTo(new Map([['a', [1n]]]), DataTypes.MAP(DataTypes.STRING(), DataTypes.ARRAY(DataTypes.BIGINT())))).toBe(true);
    expect(conformsTo(null, DataTypes.INT())).toBe(true);
  });

  it('explains what is wrong and where', () => {
    expect(explainNonConformance(1, DataTypes.BIGINT())).toBe('$: BIGINT needs a 64-bit bigint, got number 1');
    expect(explainNonConformance(null, notNull(DataTypes.INT()))).toBe('$: NULL in INT NOT NULL');
    expect(explainNonConformance(Decimal.parse('1.5'), DataTypes.DECIMAL(3, 2))).toMatch(/scale 2/);
    expect(explainNonConformance(128, DataTypes.TINYINT())).toMatch(/\[-128, 127\]/);
    expect(explainNonConformance([[1, 'x']], DataTypes.ARRAY(DataTypes.ROW(FIELD('a', DataTypes.INT()), FIELD('b', DataTypes.INT()))))).toMatch(
      /^\$\[0\]\.b: INT needs/,
    );
    expect(explainNonConformance('abc', DataTypes.VARCHAR(2))).toMatch(/at most 2 characters/);
  });
});

describe('TIMESTAMP <-> TIMESTAMP_LTZ', () => {
  it('converts through the zone both ways', () => {
    const instant = Date.UTC(2024, 0, 1, 12);
    const wall = ltzToTimestamp(instant, 'Asia/Shanghai');
    expect(wall).toBe(Date.UTC(2024, 0, 1, 20));
    expect(timestampToLtz(wall, 'Asia/Shanghai')).toBe(instant);
  });
});
