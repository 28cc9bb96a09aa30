import { describe, expect, it } from 'vitest';
import { applyCatalogChange, type CatalogDescriptor } from '../../src/catalog/catalog-descriptor.js';

const cat2: CatalogDescriptor = { name: 'cat2', options: { type: 'generic_in_memory', 'default-database': 'db' }, comment: null };

describe('applyCatalogChange', () => {
  it('SET adds and replaces options, keeping the others and the comment', () => {
    const d = applyCatalogChange({ ...cat2, comment: 'c' }, { kind: 'set-options', options: { 'default-database': 'db_new', k: 'v' } });
    expect(d).toEqual({ name: 'cat2', options: { type: 'generic_in_memory', 'default-database': 'db_new', k: 'v' }, comment: 'c' });
  });

  it('RESET removes the keys it names and ignores keys that are not there', () => {
    expect(applyCatalogChange(cat2, { kind: 'reset-options', keys: ['default-database', 'k1'] }).options).toEqual({ type: 'generic_in_memory' });
  });

  it('COMMENT replaces the comment, an empty one included', () => {
    expect(applyCatalogChange(cat2, { kind: 'comment', comment: '' }).comment).toBe('');
  });

  it('leaves the descriptor it was given as it was', () => {
    applyCatalogChange(cat2, { kind: 'reset-options', keys: ['default-database'] });
    expect(cat2.options).toEqual({ type: 'generic_in_memory', 'default-database': 'db' });
  });
});
