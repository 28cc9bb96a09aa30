import { describe, expect, it } from 'vitest';
import { describeCatalogRows, showCreateCatalog } from '../../../src/api/ddl/catalog-info.js';

describe('SHOW CREATE CATALOG text', () => {
  it("prints the comment and the options sorted, as Flink's ShowCreateUtil", () => {
    const text = showCreateCatalog({ name: 'cat_comment', options: { type: 'generic_in_memory', 'default-database': 'db' }, comment: "hello 'catalog'" });
    expect(text).toBe("CREATE CATALOG `cat_comment`\nCOMMENT 'hello ''catalog'''\nWITH (\n  'default-database' = 'db',\n  'type' = 'generic_in_memory'\n)\n");
  });

  it('leaves out a missing comment but prints an empty one, and masks secrets', () => {
    expect(showCreateCatalog({ name: 'c', options: { type: 'x', password: 'hunter2' }, comment: null })).toBe(
      "CREATE CATALOG `c`\nWITH (\n  'password' = '******',\n  'type' = 'x'\n)\n",
    );
    expect(showCreateCatalog({ name: 'c', options: { type: 'x' }, comment: '' })).toContain("COMMENT ''\n");
  });
});

describe('DESCRIBE CATALOG rows', () => {
  const d = { name: 'cat2', options: { type: 'generic_in_memory', 'default-database': 'db', 'a.token': 's3cret' }, comment: null };

  it('are name, type and comment (null when there is none)', () => {
    expect(describeCatalogRows(d, false)).toEqual([
      ['name', 'cat2'],
      ['type', 'generic_in_memory'],
      ['comment', null],
    ]);
  });

  it("EXTENDED adds the other options as option:<key>, sorted, secrets masked", () => {
    expect(describeCatalogRows(d, true).slice(3)).toEqual([
      ['option:a.token', '******'],
      ['option:default-database', 'db'],
    ]);
  });
});
