import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/sluice-error.js';
import { DataTypes, FIELD } from '../../src/types/data-types.js';
import { notNull } from '../../src/types/logical-type.js';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { typeToString } from '../../src/types/type-to-string.js';

function sample(): ResolvedSchema {
  return ResolvedSchema.of(
    [
      Columns.physical('id', DataTypes.BIGINT()),
      Columns.physical('name', DataTypes.STRING(), 'the name'),
      Columns.physical('ts', DataTypes.TIMESTAMP(3)),
      Columns.metadata('offset', DataTypes.BIGINT(), undefined, true),
      Columns.metadata('ts_kafka', DataTypes.TIMESTAMP_LTZ(3), 'timestamp'),
      Columns.computed('id2', DataTypes.BIGINT(), 'id * 2'),
    ],
    [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '5' SECOND" }],
    ResolvedSchema.primaryKey(['id']),
  );
}

describe('ResolvedSchema', () => {
  it('marks the rowtime column and makes primary key columns NOT NULL', () => {
    const s = sample();
    expect(typeToString(s.findColumn('ts')!.type)).toBe('TIMESTAMP(3) *ROWTIME*');
    expect(typeToString(s.findColumn('id')!.type)).toBe('BIGINT NOT NULL');
    expect(s.rowtimeAttribute()).toBe('ts');
    expect(s.primaryKey?.name).toBe('PK_id');
  });

  it('separates physical, persisted and all columns', () => {
    const s = sample();
    expect(s.columnNames()).toEqual(['id', 'name', 'ts', 'offset', 'ts_kafka', 'id2']);
    expect(s.physicalColumns().map((c) => c.name)).toEqual(['id', 'name', 'ts']);
    expect(s.persistedColumns().map((c) => c.name)).toEqual(['id', 'name', 'ts', 'ts_kafka']);
    expect(s.sourceColumns().map((c) => c.name)).toEqual(['id', 'name', 'ts', 'offset', 'ts_kafka']);
    expect(typeToString(s.toPhysicalRowType())).toBe('ROW<`id` BIGINT NOT NULL, `name` STRING, `ts` TIMESTAMP(3) *ROWTIME*> NOT NULL');
    expect(s.toRowType().fields).toHaveLength(6);
    expect(s.toSinkRowType().fields.map((f) => f.name)).toEqual(['id', 'name', 'ts', 'ts_kafka']);
    expect(s.findColumnIndex('ts_kafka')).toBe(4);
    expect(s.findColumnIndex('nope')).toBe(-1);
  });

  it('reports primary key indexes among all and among physical columns', () => {
    const s = ResolvedSchema.of(
      [Columns.metadata('m', DataTypes.INT()), Columns.physical('a', DataTypes.INT()), Columns.physical('b', DataTypes.INT())],
      [],
      ResolvedSchema.primaryKey(['b', 'a']),
    );
    expect(s.primaryKeyIndexes()).toEqual([2, 1]);
    expect(s.physicalPrimaryKeyIndexes()).toEqual([1, 0]);
    expect(s.primaryKey?.name).toBe('PK_b_a');
  });

  it('prints as Flink', () => {
    expect(sample().toString()).toBe(
      [
        '(',
        '  `id` BIGINT NOT NULL,',
        "  `name` STRING COMMENT 'the name',",
        '  `ts` TIMESTAMP(3) *ROWTIME*,',
        '  `offset` BIGINT METADATA VIRTUAL,',
        "  `ts_kafka` TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',",
        '  `id2` BIGINT AS id * 2,',
        "  WATERMARK FOR `ts`: TIMESTAMP(3) AS ts - INTERVAL '5' SECOND,",
        '  CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED',
        ')',
      ].join('\n'),
    );
  });

  it('rejects invalid schemas with actionable messages', () => {
    const a = Columns.physical('a', DataTypes.INT());
    expect(() => ResolvedSchema.of([a, a])).toThrow(/duplicate column names; 'a'/);
    expect(() => ResolvedSchema.of([a], [{ rowtimeAttribute: 'x', expression: 'x' }])).toThrow(
      /Invalid column name 'x' for rowtime attribute.*Available columns are: \[a\]/,
    );
    expect(() => ResolvedSchema.of([a], [{ rowtimeAttribute: 'a', expression: 'a' }])).toThrow(/but the time field type is INT/);
    expect(() =>
      ResolvedSchema.of([Columns.physical('t', DataTypes.TIMESTAMP(6))], [{ rowtimeAttribute: 't', expression: 't' }]),
    ).toThrow(ValidationError);
    expect(() => ResolvedSchema.of([a], [], ResolvedSchema.primaryKey(['b']))).toThrow(/Column 'b' does not exist/);
    expect(() =>
      ResolvedSchema.of([a, Columns.computed('c', DataTypes.INT(), 'a + 1')], [], ResolvedSchema.primaryKey(['c'])),
    ).toThrow(/Column 'c' is not a physical column/);
  });

  it('builds from a row type', () => {
    const s = ResolvedSchema.fromRowType(DataTypes.ROW(FIELD('x', notNull(DataTypes.INT())), FIELD('y', DataTypes.STRING(), 'why')));
    expect(s.columnNames()).toEqual(['x', 'y']);
    expect(s.findColumn('y')?.comment).toBe('why');
  });
});
