import type { CatalogBaseTable } from '../../catalog/catalog-table.js';
import { identifierToSql, quoteIdentifier, type ObjectIdentifier } from '../../catalog/object-identifier.js';
import { maskSecrets } from '../../config/secrets.js';
import type { Column } from '../../types/column.js';
import { withoutTimeAttribute } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';

/**
 * The DDL that re-creates a table or view, as Flink's SHOW CREATE TABLE prints it. Secret option
 * values print as `******` (so the output re-parses, but does not leak credentials).
 */
export function showCreate(id: ObjectIdentifier, table: CatalogBaseTable, temporary: boolean): string {
  const name = identifierToSql(id);
  if (table.kind === 'view') {
    return `CREATE ${temporary ? 'TEMPORARY ' : ''}VIEW ${name} (\n${table.schema.columns.map((c) => `  ${quoteIdentifier(c.name)}`).join(',\n')}\n)${
      table.comment !== undefined ? `\nCOMMENT ${quoteString(table.comment)}` : ''
    } AS\n${table.expandedQuery}\n`;
  }
  const lines = table.schema.columns.map(columnDdl);
  for (const w of table.schema.watermarkSpecs) lines.push(`WATERMARK FOR ${quoteIdentifier(w.rowtimeAttribute)} AS ${w.expression}`);
  const pk = table.schema.primaryKey;
  if (pk) lines.push(`CONSTRAINT ${quoteIdentifier(pk.name)} PRIMARY KEY (${pk.columns.map(quoteIdentifier).join(', ')}) NOT ENFORCED`);
  let out = `CREATE ${temporary ? 'TEMPORARY ' : ''}TABLE ${name} (\n${lines.map((l) => `  ${l}`).join(',\n')}\n)`;
  if (table.comment !== undefined) out += `\nCOMMENT ${quoteString(table.comment)}`;
  if (table.partitionKeys.length > 0) out += `\nPARTITIONED BY (${table.partitionKeys.map(quoteIdentifier).join(', ')})`;
  const options = Object.entries(maskSecrets(table.options));
  if (options.length > 0) out += ` WITH (\n${options.map(([k, v]) => `  ${quoteString(k)} = ${quoteString(v)}`).join(',\n')}\n)`;
  return out + '\n';
}

function columnDdl(c: Column): string {
  const comment = c.comment !== undefined ? ` COMMENT ${quoteString(c.comment)}` : '';
  switch (c.kind) {
    case 'physical':
      return `${quoteIdentifier(c.name)} ${typeToString(withoutTimeAttribute(c.type))}${comment}`;
    case 'computed':
      return `${quoteIdentifier(c.name)} AS ${c.expression}${comment}`;
    case 'metadata':
      return `${quoteIdentifier(c.name)} ${typeToString(c.type)} METADATA${c.metadataKey !== undefined ? ` FROM ${quoteString(c.metadataKey)}` : ''}${c.virtual ? ' VIRTUAL' : ''}${comment}`;
  }
}

function quoteString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}
