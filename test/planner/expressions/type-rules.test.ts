import { describe, expect, it } from 'vitest';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { notNull } from '../../../src/types/logical-type.js';
import { typeToString } from '../../../src/types/type-to-string.js';
import { commonType, comparisonTypes, widenNumeric } from '../../../src/planner/expressions/type-rules.js';

const str = (t: ReturnType<typeof commonType>): string => (t === undefined ? 'none' : typeToString(t));

describe('type rules', () => {
  it('widens numerics TINYINT < SMALLINT < INT < BIGINT < DECIMAL < FLOAT < DOUBLE', () => {
    expect(str(widenNumeric(T.TINYINT(), T.INT()))).toBe('INT');
    expect(str(widenNumeric(notNull(T.INT()), notNull(T.BIGINT())))).toBe('BIGINT NOT NULL');
    expect(str(widenNumeric(T.INT(), T.DECIMAL(5, 2)))).toBe('DECIMAL(12, 2)');
    expect(str(widenNumeric(T.DECIMAL(5, 2), T.FLOAT()))).toBe('FLOAT');
    expect(str(widenNumeric(T.FLOAT(), T.DOUBLE()))).toBe('DOUBLE');
  });
  it('finds common types for CASE/COALESCE and absorbs NULL', () => {
    expect(str(commonType([T.NULL(), notNull(T.INT())]))).toBe('INT');
    expect(str(commonType([T.VARCHAR(3), T.VARCHAR(10)]))).toBe('VARCHAR(10)');
    expect(str(commonType([T.CHAR(3), T.VARCHAR(10)]))).toBe('VARCHAR(10)');
    // Two empty literals (CHAR(0), Flink's CharType.ofEmptyLiteral) meet as CHAR(0): COALESCE('', '') is valid.
    const empty = notNull({ kind: 'CHAR', length: 0, nullable: false } as const);
    expect(str(commonType([empty, empty]))).toBe('CHAR(0) NOT NULL');
    // No common type for DATE and TIMESTAMP, as in Calcite (a real Flink 2.3 refuses CASE and VALUES mixing them).
    expect(str(commonType([T.DATE(), T.TIMESTAMP(3)]))).toBe('none');
    expect(str(commonType([T.INT(), T.STRING()]))).toBe('none');
    expect(str(commonType([T.ARRAY(T.INT()), T.ARRAY(T.BIGINT())]))).toBe('ARRAY<BIGINT>');
  });
  it('meets DECIMALs at the least-restrictive type, where integer digits win (as Flink 2.3)', () => {
    expect(str(commonType([T.DECIMAL(10, 2), T.DECIMAL(38, 0)]))).toBe('DECIMAL(38, 0)');
    expect(str(commonType([T.DECIMAL(38, 30), T.BIGINT()]))).toBe('DECIMAL(38, 19)');
    expect(str(commonType([T.INT(), T.DECIMAL(5, 2)]))).toBe('DECIMAL(12, 2)');
    expect(str(commonType([T.DECIMAL(5, 2), T.DOUBLE()]))).toBe('DOUBLE');
  });
  it('compares DECIMALs by value, or in their least-restrictive type for = and <> (as Flink 2.3)', () => {
    expect(comparisonTypes(T.DECIMAL(10, 2), T.DECIMAL(38, 0))?.map((t) => typeToString(t))).toEqual(['DECIMAL(10, 2)', 'DECIMAL(38, 0)']);
    expect(comparisonTypes(T.INT(), T.DECIMAL(38, 0))?.map((t) => typeToString(t))).toEqual(['DECIMAL(10, 0)', 'DECIMAL(38, 0)']);
    expect(comparisonTypes(T.DECIMAL(10, 2), T.DECIMAL(38, 0), 'least-restrictive')?.map((t) => typeToString(t))).toEqual(['DECIMAL(38, 0)', 'DECIMAL(38, 0)']);
    expect(comparisonTypes(T.DECIMAL(10, 2), T.DOUBLE())?.map((t) => typeToString(t))).toEqual(['DOUBLE', 'DOUBLE']);
  });
  it('compares strings with numbers by casting the string', () => {
    const r = comparisonTypes(T.STRING(), notNull(T.INT()));
    expect(r?.map((t) => typeToString(t))).toEqual(['INT', 'INT NOT NULL']);
    expect(comparisonTypes(T.BOOLEAN(), T.ARRAY(T.INT()))).toBeUndefined();
  });
});
