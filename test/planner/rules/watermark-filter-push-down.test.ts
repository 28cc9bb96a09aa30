import { describe, expect, it } from 'vitest';
import type { CatalogTable } from '../../../src/catalog/catalog-table.js';
import type { ObjectIdentifier } from '../../../src/catalog/object-identifier.js';
import type { DynamicTableSource } from '../../../src/factories/dynamic-table-source.js';
import { explain } from '../../../src/planner/planner.js';
import { parseStatement } from '../../../src/sql/parse.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { Columns, ResolvedSchema } from '../../../src/types/schema.js';
import { testTable, TestContext } from '../harness.js';

const schema = ResolvedSchema.of(
  [Columns.physical('a', DataTypes.INT()), Columns.physical('ts', DataTypes.TIMESTAMP(3))],
  [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '1' SECOND" }],
);

/** A source that accepts every filter offered, and takes the watermark when `pushDown`. */
class FilteringContext extends TestContext {
  offered = 0;
  constructor(private readonly pushDown: boolean) {
    super('streaming');
  }
  override createSource(id: ObjectIdentifier, table: CatalogTable): DynamicTableSource {
    const s = super.createSource(id, table);
    if (s.kind !== 'scan-source') return s;
    return {
      ...s,
      supportsWatermarkPushDown: this.pushDown,
      applyFilters: (filters) => {
        this.offered += filters.length;
        return { accepted: filters, remaining: [] };
      },
    };
  }
}

describe('filter push-down into a scan with a watermark', () => {
  it('offers nothing to a source that cannot take the watermark: the filter stays above the WatermarkAssigner', async () => {
    const ctx = new FilteringContext(false).add('T', testTable(schema, [], { bounded: false }));
    const text = await explain(parseStatement('SELECT a FROM T WHERE a > 1'), ctx);
    expect(ctx.offered).toBe(0);
    expect(text).toContain('Calc(select=[a], where=[(a > 1)])\n+- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])\n   +- TableSourceScan(table=[[default_catalog, default_database, T]], fields=[a, ts])');
  });

  it('pushes the filter after the watermark into a source that takes both', async () => {
    const ctx = new FilteringContext(true).add('T', testTable(schema, [], { bounded: false }));
    const text = await explain(parseStatement('SELECT a FROM T WHERE a > 1'), ctx);
    expect(ctx.offered).toBe(1);
    expect(text).toContain('TableSourceScan(table=[[default_catalog, default_database, T, watermark=[-(ts, 1000:INTERVAL SECOND)], watermarkEmitStrategy=[on-periodic], filter=[>(a, 1)]]], fields=[a, ts])');
  });
});
