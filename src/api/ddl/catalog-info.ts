import type { CatalogDescriptor } from '../../catalog/catalog-descriptor.js';
import { quoteIdentifier } from '../../catalog/object-identifier.js';
import { maskSecrets } from '../../config/secrets.js';

/** The option naming the catalog factory; DESCRIBE CATALOG shows it as `type`, not as an `option:` row. */
const TYPE_KEY = 'type';

/**
 * The DDL that re-creates a catalog, as Flink's SHOW CREATE CATALOG prints it (ShowCreateUtil): the name, the
 * comment if there is one, and the options one a line, sorted. Secret values print as `******`, as in SHOW CREATE
 * TABLE.
 */
export function showCreateCatalog(d: CatalogDescriptor): string {
  let out = `CREATE CATALOG ${quoteIdentifier(d.name)}\n`;
  if (d.comment !== null) out += `COMMENT ${quoteString(d.comment)}\n`;
  const options = Object.entries(maskSecrets(d.options))
    .map(([k, v]) => `  ${quoteString(k)} = ${quoteString(v)}`)
    .sort();
  if (options.length > 0) out += `WITH (\n${options.join(',\n')}\n)\n`;
  return out;
}

/**
 * DESCRIBE CATALOG's rows (`info name`, `info value`), as Flink's DescribeCatalogOperation makes them: name, type and
 * comment (null when CREATE CATALOG had none); EXTENDED adds every other option as `option:<key>`, sorted by key.
 */
export function describeCatalogRows(d: CatalogDescriptor, extended: boolean): [string, string | null][] {
  const rows: [string, string | null][] = [
    ['name', d.name],
    ['type', d.options[TYPE_KEY] ?? ''],
    ['comment', d.comment],
  ];
  if (extended) {
    const options = Object.entries(maskSecrets(d.options))
      .filter(([k]) => k !== TYPE_KEY)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [k, v] of options) rows.push([`option:${k}`, v]);
  }
  return rows;
}

function quoteString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}
