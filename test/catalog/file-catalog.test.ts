import { chmod, mkdtemp, readFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogManager } from '../../src/catalog/catalog-manager.js';
import type { CatalogTable } from '../../src/catalog/catalog-table.js';
import { FileCatalog } from '../../src/catalog/file-catalog.js';
import { InMemoryCatalog } from '../../src/catalog/in-memory-catalog.js';
import { DataTypes } from '../../src/types/data-types.js';
import { ResolvedSchema } from '../../src/types/schema.js';
import { typeToString } from '../../src/types/type-to-string.js';

const table: CatalogTable = {
  kind: 'table',
  schema: ResolvedSchema.of(
    [
      { kind: 'physical', name: 'id', type: DataTypes.BIGINT() },
      { kind: 'physical', name: 'price', type: DataTypes.DECIMAL(10, 2), comment: 'in EUR' },
      { kind: 'physical', name: 'ts', type: DataTypes.TIMESTAMP(3) },
      { kind: 'computed', name: 'doubled', type: DataTypes.DECIMAL(11, 2), expression: '`price` * 2' },
      { kind: 'metadata', name: 'off', type: DataTypes.BIGINT(), metadataKey: 'offset', virtual: true },
    ],
    [{ rowtimeAttribute: 'ts', expression: "`ts` - INTERVAL '5' SECOND" }],
    ResolvedSchema.primaryKey(['id']),
  ),
  partitionKeys: [],
  options: { connector: 'datagen', 'number-of-rows': '10' },
  comment: 'orders',
};

describe('FileCatalog', () => {
  it('persists tables as readable JSON and reads them back in a new instance', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-cat-'));
    const a = new FileCatalog('my', dir);
    await a.open();
    await a.createDatabase('sales', { properties: { owner: 'x' }, comment: 'db' }, false);
    await a.createTable({ database: 'sales', object: 'orders' }, table, false);
    const text = await readFile(join(dir, 'sales', 'tables', 'orders.json'), 'utf8');
    expect(text).toContain('"type": "DECIMAL(10, 2)"');
    expect(text).toContain('"connector": "datagen"');

    const b = new FileCatalog('my', dir);
    await b.open();
    expect(await b.listDatabases()).toEqual(['default_database', 'sales']);
    const back = await b.getTable({ database: 'sales', object: 'orders' });
    expect(back.schema.toString()).toBe(table.schema.toString());
    expect(typeToString(back.schema.findColumn('ts')!.type)).toBe('TIMESTAMP(3) *ROWTIME*');
    expect(back.kind === 'table' && back.options).toEqual(table.options);
    expect(back.comment).toBe('orders');
  });

  it('removes the file of a dropped table and the folder of a dropped database', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-cat-'));
    const c = new FileCatalog('my', dir);
    await c.open();
    await c.createDatabase('d', { properties: {} }, false);
    await c.createTable({ database: 'd', object: 't' }, table, false);
    await c.renameTable({ database: 'd', object: 't' }, 'u', false);
    expect(await readdir(join(dir, 'd', 'tables'))).toEqual(['u.json']);
    await expect(c.dropDatabase('d', false, false)).rejects.toThrow('Database d in catalog my is not empty.');
    await c.dropDatabase('d', false, true);
    expect(await readdir(dir)).toEqual(['default_database']);
  });
});

describe('CatalogManager', () => {
  it('resolves partial names and lets temporary tables shadow permanent ones', async () => {
    const m = new CatalogManager('default_catalog', new InMemoryCatalog('default_catalog'));
    const id = m.qualify(['t']);
    await m.createTable(id, table, false);
    const shadow: CatalogTable = { ...table, options: { connector: 'blackhole' } };
    m.createTemporaryTable(id, shadow, false);
    const found = await m.resolveTable(['default_database', 't']);
    expect(found.isTemporary).toBe(true);
    expect(found.table.kind === 'table' && found.table.options['connector']).toBe('blackhole');
    m.dropTemporaryTable(id);
    expect((await m.resolveTable(['default_catalog', 'default_database', 't'])).isTemporary).toBe(false);
    await expect(m.resolveTable(['nope'])).rejects.toThrow("Object 'nope' not found");
    await expect(m.setCurrentDatabase('missing')).rejects.toThrow('A database with name [missing] does not exist');
  });
});

describe('FileCatalog secrets at rest', () => {
  const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;
  const secretTable: CatalogTable = {
    ...table,
    options: { connector: 'kafka', topic: 't', 'properties.sasl.jaas.config': 'org.apache.kafka.common.security.plain.PlainLoginModule required password="pw";' },
  };

  it('writes a table file holding a secret option with mode 0600, others with the default mode', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-cat-'));
    const c = new FileCatalog('my', dir);
    await c.open();
    await c.createTable({ database: 'default_database', object: 'secret' }, secretTable, false);
    await c.createTable({ database: 'default_database', object: 'plain' }, table, false);
    const tables = join(dir, 'default_database', 'tables');
    expect(await modeOf(join(tables, 'secret.json'))).toBe(0o600);
    expect(await modeOf(join(tables, 'plain.json'))).toBe(0o666 & ~process.umask());
    // The secret is stored (the next run needs it), only the permissions protect it.
    expect(await readFile(join(tables, 'secret.json'), 'utf8')).toContain('password=\\"pw\\"');
  });

  it('narrows an existing secret file to 0600 when the catalog opens or rewrites it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-cat-'));
    const a = new FileCatalog('my', dir);
    await a.open();
    await a.createDatabase('d', { properties: { 'auth.token': 'abc' } }, false);
    await a.createTable({ database: 'd', object: 's' }, secretTable, false);
    const file = join(dir, 'd', 'tables', 's.json');
    const dbFile = join(dir, 'd', '_database.json');
    expect(await modeOf(dbFile)).toBe(0o600);
    // As an older version (or a copy) left them: world-readable.
    await chmod(file, 0o644);
    await chmod(dbFile, 0o644);
    const b = new FileCatalog('my', dir);
    await b.open();
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(dbFile)).toBe(0o600);
    // A rewrite with unchanged content narrows it too.
    await chmod(file, 0o644);
    await b.createTable({ database: 'd', object: 'other' }, table, false);
    expect(await modeOf(file)).toBe(0o600);
  });
});
