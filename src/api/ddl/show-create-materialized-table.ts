import type { CatalogTable } from '../../catalog/catalog-table.js';
import type { MaterializedTableDefinition } from '../../catalog/materialized-table.js';
import { identifierToSql, quoteIdentifier, type ObjectIdentifier } from '../../catalog/object-identifier.js';
import { maskSecrets } from '../../config/secrets.js';
import { freshnessToSql } from './materialized-table-definition.js';

/**
 * SHOW CREATE MATERIALIZED TABLE as Flink 2.3 prints it (ShowCreateUtil, checked against its materialized_table.q and
 * ShowCreateUtilTest): no column list (the columns come from the query), ` (\n  CONSTRAINT ... NOT ENFORCED\n)` after
 * the name when there is a primary key, then COMMENT,
 * PARTITIONED BY, the options sorted by key (secrets masked), FRESHNESS and REFRESH_MODE (the derived ones when the
 * statement left them out), and the stored expanded query after `AS `, each on a line of its own.
 */
export function showCreateMaterializedTable(id: ObjectIdentifier, table: CatalogTable, definition: MaterializedTableDefinition): string {
  const pk = table.schema.primaryKey;
  let out = `CREATE MATERIALIZED TABLE ${identifierToSql(id)}`;
  out += pk ? ` (\n  CONSTRAINT ${quoteIdentifier(pk.name)} PRIMARY KEY (${pk.columns.map(quoteIdentifier).join(', ')}) NOT ENFORCED\n)\n` : '\n';
  if (table.comment !== undefined) out += `COMMENT ${quoteString(table.comment)}\n`;
  if (table.partitionKeys.length > 0) out += `PARTITIONED BY (${table.partitionKeys.map(quoteIdentifier).join(', ')})\n`;
  const options = Object.entries(maskSecrets(table.options)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (options.length > 0) out += `WITH (\n${options.map(([k, v]) => `  ${quoteString(k)} = ${quoteString(v)}`).join(',\n')}\n)\n`;
  out += `FRESHNESS = ${freshnessToSql(definition.freshness)}\n`;
  out += `REFRESH_MODE = ${definition.refreshMode}\n`;
  return `${out}AS ${definition.expandedQuery}\n`;
}

function quoteString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}
