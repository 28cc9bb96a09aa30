import type { CatalogBaseTable } from '../../catalog/catalog-table.js';
import { identifierToSql, quoteIdentifier, type ObjectIdentifier } from '../../catalog/object-identifier.js';
import { maskSecrets } from '../../config/secrets.js';
import type { Column } from '../../types/column.js';
import { withoutTimeAttribute } from '../../types/logical-type.js';
import { typeToSerializableString } from '../../types/type-to-string.js';

/**
 * The DDL that re-creates a table or view, as Flink 2.3's SHOW CREATE TABLE / VIEW prints it (ShowCreateUtil, checked
 * with its SQL client, scripts/flink-sql-client.sh): types in their serializable spelling (`VARCHAR(2147483647)`, not
 * `STRING`), `)` on a line of its own followed by COMMENT, PARTITIONED BY and `WITH (` lines, options sorted by key,
 * and a view's stored expanded query after `AS `. Secret option values print as `******` (so the output re-parses,
 * but does not leak credentials).
 */
export function showCreate(id: ObjectIdentifier, table: CatalogBaseTable, temporary: boolean): string {
  const name = identifierToSql(id);
  if (table.kind === 'view') {
    return `CREATE ${temporary ? 'TEMPORARY ' : ''}VIEW ${name} (\n${table.schema.columns.map((c) => `  ${quoteIdentifier(c.name)}`).join(',\n')}\n)\n${
      table.comment !== undefined ? `COMMENT ${quoteString(table.comment)}\n` : ''
    }AS ${table.expandedQuery}\n`;
  }
  const lines = table.schema.columns.map(columnDdl);
  for (const w of table.schema.watermarkSpecs) lines.push(`WATERMARK FOR ${quoteIdentifier(w.rowtimeAttribute)} AS ${w.expression}`);
  const pk = table.schema.primaryKey;
  if (pk) lines.push(`CONSTRAINT ${quoteIdentifier(pk.name)} PRIMARY KEY (${pk.columns.map(quoteIdentifier).join(', ')}) NOT ENFORCED`);
  let out = `CREATE ${temporary ? 'TEMPORARY ' : ''}TABLE ${name} (\n${lines.map((l) => `  ${l}`).join(',\n')}\n)\n`;
  if (table.comment !== undefined) out += `COMMENT ${quoteString(table.comment)}\n`;
  if (table.partitionKeys.length > 0) out += `PARTITIONED BY (${table.partitionKeys.map(quoteIdentifier).join(', ')})\n`;
  // Sorted by key as Flink's TreeSet sorts them (UTF-16 code unit order, which is also the default sort's).
  const options = Object.entries(maskSecrets(table.options)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (options.length > 0) out += `WITH (\n${options.map(([k, v]) => `  ${quoteString(k)} = ${quoteString(v)}`).join(',\n')}\n)\n`;
  return out;
}

function columnDdl(c: Column): string {
  const comment = c.comment !== undefined ? ` COMMENT ${quoteString(c.comment)}` : '';
  switch (c.kind) {
    case 'physical':
      return `${quoteIdentifier(c.name)} ${typeToSerializableString(withoutTimeAttribute(c.type))}${comment}`;
    case 'computed':
      return `${quoteIdentifier(c.name)} AS ${c.expression}${comment}`;
    case 'metadata':
      return `${quoteIdentifier(c.name)} ${typeToSerializableString(c.type)} METADATA${c.metadataKey !== undefined ? ` FROM ${quoteString(c.metadataKey)}` : ''}${c.virtual ? ' VIRTUAL' : ''}${comment}`;
  }
}

function quoteString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}
