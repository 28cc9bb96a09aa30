import { describe, expect, it } from 'vitest';
import { supportsImplicitCast } from '../../src/planner/binder/sink-cast.js';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { formatRows, runInsert, testTable, TestContext } from './harness.js';

const src = ResolvedSchema.of([Columns.physical('s', DataTypes.STRING()), Columns.physical('i', DataTypes.INT()), Columns.physical('b', DataTypes.BIGINT())]);
const intSink = ResolvedSchema.of([Columns.physical('id', DataTypes.INT()), Columns.physical('name', DataTypes.STRING())]);
const wideSink = ResolvedSchema.of([Columns.physical('id', DataTypes.BIGINT()), Columns.physical('d', DataTypes.DOUBLE())]);

function ctx(): TestContext {
  return new TestContext('batch')
    .add('src', testTable(src, [Row.insert('x', 1, 2n)]))
    .add('int_sink', testTable(intSink))
    .add('wide_sink', testTable(wideSink));
}

describe('INSERT column types', () => {
  it('rejects a STRING into an INT column at planning, naming column and position as Flink', async () => {
    await expect(runInsert('INSERT INTO int_sink SELECT s, s FROM src', ctx())).rejects.toThrow(
      "Column types of query result and sink for 'default_catalog.default_database.int_sink' do not match.\nCause: Incompatible types for sink column 'id' at position 0.",
    );
  });

  it('rejects narrowing BIGINT into INT', async () => {
    await expect(runInsert('INSERT INTO int_sink SELECT b, s FROM src', ctx())).rejects.toThrow("Incompatible types for sink column 'id' at position 0.");
  });

  it('rejects an INT into a STRING column at position 1', async () => {
    await expect(runInsert('INSERT INTO int_sink SELECT i, i FROM src', ctx())).rejects.toThrow("Incompatible types for sink column 'name' at position 1.");
  });

  it('widens INT into BIGINT and DOUBLE implicitly', async () => {
    const c = ctx();
    await runInsert('INSERT INTO wide_sink SELECT i, i FROM src', c);
    expect(formatRows(c.tables.get('wide_sink')!.written, wideSink.columnTypes())).toEqual(['+I[1, 1.0]']);
  });

  it('knows Flink implicit cast families', () => {
    expect(supportsImplicitCast(DataTypes.NULL(), DataTypes.INT())).toBe(true);
    expect(supportsImplicitCast(DataTypes.CHAR(3), DataTypes.STRING())).toBe(true);
    expect(supportsImplicitCast(DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(6))).toBe(true);
    expect(supportsImplicitCast(DataTypes.DECIMAL(10, 2), DataTypes.INT())).toBe(false);
    expect(supportsImplicitCast(DataTypes.ARRAY(DataTypes.INT()), DataTypes.ARRAY(DataTypes.BIGINT()))).toBe(true);
    expect(supportsImplicitCast(DataTypes.ARRAY(DataTypes.STRING()), DataTypes.ARRAY(DataTypes.INT()))).toBe(false);
  });
});
