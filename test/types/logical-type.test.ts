import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/sluice-error.js';
import { DataTypes, FIELD } from '../../src/types/data-types.js';
import {
  isNumeric,
  isExactNumeric,
  isCharacterString,
  isDatetime,
  MAX_LENGTH,
  notNull,
  typesEqual,
  typesEqualIgnoringNullability,
  withNullability,
  withoutTimeAttribute,
} from '../../src/types/logical-type.js';
import type { LogicalType } from '../../src/types/logical-type.js';
import { parseLogicalType, TypeParseError } from '../../src/types/parse-logical-type.js';
import { typeToString } from '../../src/types/type-to-string.js';

const cases: Array<[LogicalType, string]> = [
  [DataTypes.BOOLEAN(), 'BOOLEAN'],
  [DataTypes.TINYINT(), 'TINYINT'],
  [DataTypes.SMALLINT(), 'SMALLINT'],
  [DataTypes.INT(), 'INT'],
  [notNull(DataTypes.BIGINT()), 'BIGINT NOT NULL'],
  [DataTypes.FLOAT(), 'FLOAT'],
  [DataTypes.DOUBLE(), 'DOUBLE'],
  [DataTypes.DATE(), 'DATE'],
  [DataTypes.NULL(), 'NULL'],
  [DataTypes.DECIMAL(10, 2), 'DECIMAL(10, 2)'],
  [DataTypes.DECIMAL(), 'DECIMAL(10, 0)'],
  [DataTypes.CHAR(), 'CHAR(1)'],
  [DataTypes.VARCHAR(10), 'VARCHAR(10)'],
  [DataTypes.STRING(), 'STRING'],
  [DataTypes.BINARY(4), 'BINARY(4)'],
  [DataTypes.VARBINARY(8), 'VARBINARY(8)'],
  [DataTypes.BYTES(), 'BYTES'],
  [DataTypes.TIME(), 'TIME(0)'],
  [DataTypes.TIMESTAMP(), 'TIMESTAMP(6)'],
  [DataTypes.TIMESTAMP(3, 'ROWTIME'), 'TIMESTAMP(3) *ROWTIME*'],
  [notNull(DataTypes.TIMESTAMP(3, 'ROWTIME')), 'TIMESTAMP(3) NOT NULL *ROWTIME*'],
  [notNull(DataTypes.TIMESTAMP_LTZ(3, 'PROCTIME')), 'TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*'],
  [DataTypes.TIMESTAMP_LTZ(3, 'PROCTIME'), 'TIMESTAMP_LTZ(3) *PROCTIME*'],
  [DataTypes.TIMESTAMP_LTZ(9), 'TIMESTAMP_LTZ(9)'],
  [DataTypes.ROW(FIELD('a', DataTypes.INT()), FIELD('b', DataTypes.STRING())), 'ROW<`a` INT, `b` STRING>'],
  [notNull(DataTypes.ROW(FIELD('a`b', DataTypes.INT(), "it's a"))), "ROW<`a``b` INT 'it''s a'> NOT NULL"],
  [DataTypes.ARRAY(DataTypes.INT()), 'ARRAY<INT>'],
  [DataTypes.ARRAY(notNull(DataTypes.INT())), 'ARRAY<INT NOT NULL>'],
  [DataTypes.MULTISET(DataTypes.STRING()), 'MULTISET<STRING>'],
  [DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()), 'MAP<STRING, INT>'],
  [DataTypes.INTERVAL_DAY_TIME('DAY_TO_SECOND', 2, 3), 'INTERVAL DAY(2) TO SECOND(3)'],
  [DataTypes.INTERVAL_DAY_TIME('DAY', 2, 6), 'INTERVAL DAY(2)'],
  [DataTypes.INTERVAL_DAY_TIME('DAY_TO_HOUR', 3, 6), 'INTERVAL DAY(3) TO HOUR'],
  [DataTypes.INTERVAL_DAY_TIME('DAY_TO_MINUTE', 2, 6), 'INTERVAL DAY(2) TO MINUTE'],
  [DataTypes.INTERVAL_DAY_TIME('HOUR', 2, 6), 'INTERVAL HOUR'],
  [DataTypes.INTERVAL_DAY_TIME('HOUR_TO_MINUTE', 2, 6), 'INTERVAL HOUR TO MINUTE'],
  [DataTypes.INTERVAL_DAY_TIME('HOUR_TO_SECOND', 2, 0), 'INTERVAL HOUR TO SECOND(0)'],
  [DataTypes.INTERVAL_DAY_TIME('MINUTE', 2, 6), 'INTERVAL MINUTE'],
  [DataTypes.INTERVAL_DAY_TIME('MINUTE_TO_SECOND', 2, 3), 'INTERVAL MINUTE TO SECOND(3)'],
  [DataTypes.INTERVAL_DAY_TIME('SECOND', 2, 3), 'INTERVAL SECOND(3)'],
  [DataTypes.INTERVAL_YEAR_MONTH('YEAR', 4), 'INTERVAL YEAR(4)'],
  [DataTypes.INTERVAL_YEAR_MONTH('YEAR_TO_MONTH', 2), 'INTERVAL YEAR(2) TO MONTH'],
  [DataTypes.INTERVAL_YEAR_MONTH('MONTH'), 'INTERVAL MONTH'],
  [
    DataTypes.ROW(
      FIELD('id', notNull(DataTypes.BIGINT())),
      FIELD('tags', DataTypes.MAP(DataTypes.STRING(), DataTypes.ARRAY(DataTypes.DECIMAL(38, 18)))),
      FIELD('nested', DataTypes.ROW(FIELD('x', DataTypes.TIME(3)))),
    ),
    'ROW<`id` BIGINT NOT NULL, `tags` MAP<STRING, ARRAY<DECIMAL(38, 18)>>, `nested` ROW<`x` TIME(3)>>',
  ],
];

describe('typeToString', () => {
  it.each(cases)('prints %j as Flink summary %s', (type, text) => {
    expect(typeToString(type)).toBe(text);
  });
});

describe('parseLogicalType', () => {
  it.each(cases)('round trips %j through %s', (type, text) => {
    const parsed = parseLogicalType(text);
    expect(typesEqual(parsed, type)).toBe(true);
    expect(typeToString(parsed)).toBe(text);
  });

  it('parses SQL spellings and defaults', () => {
    const p = (s: string): string => typeToString(parseLogicalType(s));
    expect(p('integer not null')).toBe('INT NOT NULL');
    expect(p('DEC')).toBe('DECIMAL(10, 0)');
    expect(p('NUMERIC(5)')).toBe('DECIMAL(5, 0)');
    expect(p('TIMESTAMP')).toBe('TIMESTAMP(6)');
    expect(p('TIMESTAMP(3) WITHOUT TIME ZONE')).toBe('TIMESTAMP(3)');
    expect(p('TIMESTAMP(3) WITH LOCAL TIME ZONE')).toBe('TIMESTAMP_LTZ(3)');
    expect(p('TIME')).toBe('TIME(0)');
    expect(p('CHAR')).toBe('CHAR(1)');
    expect(p('VARCHAR')).toBe('VARCHAR(1)');
    expect(p(`VARCHAR(${MAX_LENGTH})`)).toBe('STRING');
    expect(p('DOUBLE PRECISION')).toBe('DOUBLE');
    expect(p('INT ARRAY')).toBe('ARRAY<INT>');
    expect(p('INT NOT NULL ARRAY NOT NULL')).toBe('ARRAY<INT NOT NULL> NOT NULL');
    expect(p('ROW(a INT, b STRING)')).toBe('ROW<`a` INT, `b` STRING>');
    expect(p('ROW<>')).toBe('ROW<>');
    expect(p('INTERVAL DAY TO SECOND')).toBe('INTERVAL DAY(2) TO SECOND(6)');
    expect(p('INTERVAL YEAR')).toBe('INTERVAL YEAR(2)');
    // Flink 2.1+'s semi-structured type (PARSE_JSON).
    expect(p('VARIANT NOT NULL')).toBe('VARIANT NOT NULL');
    expect(p('ARRAY<VARIANT>')).toBe('ARRAY<VARIANT>');
  });

  it('parses the brief example with nested generics and NOT NULL', () => {
    const t = parseLogicalType('ROW<a INT NOT NULL, b ARRAY<STRING>>');
    expect(t).toEqual({
      kind: 'ROW',
      nullable: true,
      fields: [
        { name: 'a', type: { kind: 'INT', nullable: false } },
        { name: 'b', type: { kind: 'ARRAY', nullable: true, element: { kind: 'VARCHAR', length: MAX_LENGTH, nullable: true } } },
      ],
    });
  });

  it('names the position of an error', () => {
    const text = 'ROW<a INT, b ARRAY<STRING>';
    try {
      parseLogicalType(text);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TypeParseError);
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as TypeParseError).position).toBe(text.length + 1);
      expect((e as Error).message).toContain("Expected '>' but found the end of the input.");
    }
    expect(() => parseLogicalType('MAP<STRING; INT>')).toThrow(/position 11: Unexpected character ';'/);
    expect(() => parseLogicalType('ROW<a FOO>')).toThrow(/position 7: Unknown type 'FOO'/);
    expect(() => parseLogicalType('DECIMAL(40, 2)')).toThrow(/position 1: Decimal precision must be between 1 and 38/);
    expect(() => parseLogicalType('INT *ROWTIME*')).toThrow(/Only TIMESTAMP and TIMESTAMP_LTZ/);
    expect(() => parseLogicalType('INT INT')).toThrow(/position 5: Unexpected token 'INT'/);
    expect(() => parseLogicalType('ROW<a INT, a STRING>')).toThrow(/must be unique/);
  });
});

describe('type helpers', () => {
  it('changes nullability without touching the original', () => {
    const t = DataTypes.INT();
    const n = withNullability(t, false);
    expect(t.nullable).toBe(true);
    expect(n.nullable).toBe(false);
    expect(withNullability(t, true)).toBe(t);
    expect(withNullability(DataTypes.NULL(), false).nullable).toBe(true);
  });

  it('compares structurally, with and without nullability', () => {
    expect(typesEqual(DataTypes.STRING(), DataTypes.VARCHAR(MAX_LENGTH))).toBe(true);
    expect(typesEqual(DataTypes.INT(), notNull(DataTypes.INT()))).toBe(false);
    expect(typesEqualIgnoringNullability(DataTypes.ARRAY(DataTypes.INT()), DataTypes.ARRAY(notNull(DataTypes.INT())))).toBe(true);
    expect(typesEqual(DataTypes.DECIMAL(10, 2), DataTypes.DECIMAL(10, 3))).toBe(false);
    expect(typesEqual(DataTypes.TIMESTAMP(3, 'ROWTIME'), DataTypes.TIMESTAMP(3))).toBe(false);
    expect(typesEqual(withoutTimeAttribute(DataTypes.TIMESTAMP(3, 'ROWTIME')), DataTypes.TIMESTAMP(3))).toBe(true);
    expect(
      typesEqual(DataTypes.ROW(FIELD('a', DataTypes.INT())), DataTypes.ROW(FIELD('b', DataTypes.INT()))),
    ).toBe(false);
  });

  it('classifies families', () => {
    expect(isNumeric(DataTypes.DECIMAL(5, 2))).toBe(true);
    expect(isNumeric(DataTypes.DOUBLE())).toBe(true);
    expect(isNumeric(DataTypes.STRING())).toBe(false);
    expect(isExactNumeric(DataTypes.FLOAT())).toBe(false);
    expect(isCharacterString(DataTypes.CHAR(3))).toBe(true);
    expect(isDatetime(DataTypes.TIMESTAMP_LTZ(3))).toBe(true);
    expect(isDatetime(DataTypes.INTERVAL_YEAR_MONTH())).toBe(false);
  });

  it('range-checks constructor arguments', () => {
    expect(() => DataTypes.DECIMAL(5, 6)).toThrow(ValidationError);
    expect(() => DataTypes.TIMESTAMP(10)).toThrow(/between 0 and 9/);
    expect(() => DataTypes.VARCHAR(0)).toThrow(ValidationError);
  });
});
