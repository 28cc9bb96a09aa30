import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/catalog/catalog.js';
import type { CatalogDescriptor } from '../../src/catalog/catalog-descriptor.js';
import { CatalogManager } from '../../src/catalog/catalog-manager.js';
import { InMemoryCatalog } from '../../src/catalog/in-memory-catalog.js';
import { ObjectAlreadyExistsError, ObjectNotFoundError, ValidationError } from '../../src/errors/sluice-error.js';

/** Builds in-memory catalogs whose default database is the `default-database` option, and records what it built. */
function recordingInit(): { init: (d: CatalogDescriptor) => Catalog; built: CatalogDescriptor[] } {
  const built: CatalogDescriptor[] = [];
  return {
    built,
    init: (d) => {
      built.push(d);
      return new InMemoryCatalog(d.name, d.options['default-database'] ?? 'default');
    },
  };
}

const c1: CatalogDescriptor = { name: 'c1', options: { type: 'generic_in_memory', 'default-database': 'db' }, comment: 'first' };

describe('CatalogManager catalogs made by CREATE CATALOG', () => {
  it('keeps the descriptor of a created catalog, and none for one registered in code', async () => {
    const cm = new CatalogManager('default_catalog', new InMemoryCatalog('default_catalog'));
    const { init } = recordingInit();
    await cm.createCatalog(c1, init, false);
    expect(cm.getCatalogDescriptor('c1')).toEqual(c1);
    expect(await cm.getCatalog('c1').listDatabases()).toEqual(['db']);
    expect(cm.getCatalogDescriptor('default_catalog')).toBeUndefined();
  });

  it('refuses a taken name, and with IF NOT EXISTS builds nothing', async () => {
    const cm = new CatalogManager('default_catalog', new InMemoryCatalog('default_catalog'));
    const { init, built } = recordingInit();
    await cm.createCatalog(c1, init, false);
    await expect(cm.createCatalog({ ...c1, comment: 'again' }, init, false)).rejects.toThrow(new ObjectAlreadyExistsError('Catalog c1 already exists.'));
    await cm.createCatalog({ ...c1, options: { type: 'nonsense' } }, init, true);
    expect(built).toHaveLength(1);
    expect(cm.getCatalogDescriptor('c1')?.comment).toBe('first');
  });

  it('ALTER builds the catalog anew from the changed descriptor, as Flink does', async () => {
    const cm = new CatalogManager('default_catalog', new InMemoryCatalog('default_catalog'));
    const { init } = recordingInit();
    await cm.createCatalog(c1, init, false);
    const before = cm.getCatalog('c1');
    await before.createDatabase('extra', { properties: {} }, false);
    await cm.alterCatalog('c1', { kind: 'set-options', options: { 'default-database': 'db_new' } }, init);
    const after = cm.getCatalog('c1');
    expect(after).not.toBe(before);
    // A new in-memory catalog: what the old one held is gone, its default database is the new option.
    expect(await after.listDatabases()).toEqual(['db_new']);
    expect(cm.getCatalogDescriptor('c1')).toEqual({ ...c1, options: { type: 'generic_in_memory', 'default-database': 'db_new' } });
    await cm.alterCatalog('c1', { kind: 'comment', comment: '' }, init);
    expect(cm.getCatalogDescriptor('c1')?.comment).toBe('');
  });

  it('keeps the old catalog when the changed descriptor does not build', async () => {
    const cm = new CatalogManager('default_catalog', new InMemoryCatalog('default_catalog'));
    const { init } = recordingInit();
    await cm.createCatalog(c1, init, false);
    const before = cm.getCatalog('c1');
    const refuse = (): Catalog => {
      throw new ValidationError("Unsupported options found for 'generic_in_memory'.");
    };
    await expect(cm.alterCatalog('c1', { kind: 'set-options', options: { bogus: 'x' } }, refuse)).rejects.toThrow(/Unsupported options/);
    expect(cm.getCatalog('c1')).toBe(before);
    expect(cm.getCatalogDescriptor('c1')).toEqual(c1);
  });

  it("refuses to ALTER a catalog that has no descriptor, saying why for the session's own", async () => {
    const cm = new CatalogManager('default_catalog', new InMemoryCatalog('default_catalog'));
    const { init } = recordingInit();
    await expect(cm.alterCatalog('nope', { kind: 'comment', comment: 'x' }, init)).rejects.toThrow(new ObjectNotFoundError('Catalog nope does not exist in the catalog store.'));
    await expect(cm.alterCatalog('default_catalog', { kind: 'comment', comment: 'x' }, init)).rejects.toThrow(/does not exist in the catalog store\. It was not created by CREATE CATALOG/);
  });

  it('forgets the descriptor of a dropped catalog', async () => {
    const cm = new CatalogManager('default_catalog', new InMemoryCatalog('default_catalog'));
    const { init } = recordingInit();
    await cm.createCatalog(c1, init, false);
    await cm.unregisterCatalog('c1', false);
    expect(cm.getCatalogDescriptor('c1')).toBeUndefined();
    await cm.createCatalog({ ...c1, comment: null }, init, false);
    expect(cm.getCatalogDescriptor('c1')?.comment).toBeNull();
  });

  it("names a missing catalog with Flink's words, and USE CATALOG with its own", async () => {
    const cm = new CatalogManager('default_catalog', new InMemoryCatalog('default_catalog'));
    await cm.createCatalog(c1, recordingInit().init, false);
    expect(() => cm.getCatalog('my')).toThrow(new ObjectNotFoundError('Catalog my does not exist'));
    expect(() => cm.getCatalog('c0')).toThrow("Catalog c0 does not exist; did you mean 'c1'?");
    expect(() => cm.setCurrentCatalog('my')).toThrow('A catalog with name [my] does not exist.');
  });
});
