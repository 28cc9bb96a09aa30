import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableFromJson, tableToJson } from '../../src/catalog/catalog-json.js';
import type { CatalogTable } from '../../src/catalog/catalog-table.js';
import { FileCatalog } from '../../src/catalog/file-catalog.js';
import { freshnessMillis, freshnessOfMillis } from '../../src/catalog/materialized-table.js';
import { DataTypes } from '../../src/types/data-types.js';
import { ResolvedSchema } from '../../src/types/schema.js';

const mt: CatalogTable = {
  kind: 'table',
  schema: ResolvedSchema.of([{ kind: 'physical', name: 'n', type: DataTypes.BIGINT() }]),
  partitionKeys: [],
  options: { connector: 'blackhole' },
  materialized: {
    originalQuery: 'SELECT n FROM t',
    expandedQuery: 'SELECT `t`.`n`\nFROM `c`.`d`.`t` AS `t`',
    freshness: { interval: 10, unit: 'SECOND' },
    logicalRefreshMode: 'AUTOMATIC',
    refreshMode: 'CONTINUOUS',
    refreshStatus: 'SUSPENDED',
    refreshHandler: { jobId: 'abc', savepointPath: '/tmp/sp/savepoint-1' },
  },
};

describe('materialized tables in catalogs', () => {
  it('keep their definition and refresh state through the catalog file form', () => {
    expect(tableFromJson(JSON.parse(JSON.stringify(tableToJson(mt))), 'here')).toEqual(mt);
    const { materialized: _, ...plain } = mt;
    expect(tableToJson(plain)).not.toHaveProperty('materialized');
  });

  it('are still materialized tables, suspended at their savepoint, when a file catalog is opened again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-mt-cat-'));
    const first = new FileCatalog('c', join(dir, 'cat'));
    await first.open();
    await first.createTable({ database: first.defaultDatabase, object: 'mt' }, mt, false);
    const again = new FileCatalog('c', join(dir, 'cat'));
    await again.open();
    expect(await again.getTable({ database: again.defaultDatabase, object: 'mt' })).toEqual(mt);
  });

  it('give a configured freshness the largest unit that divides it, as Flink', () => {
    expect(freshnessOfMillis(180_000)).toEqual({ interval: 3, unit: 'MINUTE' });
    expect(freshnessOfMillis(3_600_000)).toEqual({ interval: 1, unit: 'HOUR' });
    expect(freshnessOfMillis(2 * 86_400_000)).toEqual({ interval: 2, unit: 'DAY' });
    expect(freshnessOfMillis(90_000)).toEqual({ interval: 90, unit: 'SECOND' });
    expect(freshnessOfMillis(1)).toEqual({ interval: 1, unit: 'SECOND' });
    expect(freshnessMillis({ interval: 10, unit: 'SECOND' })).toBe(10_000);
  });
});
