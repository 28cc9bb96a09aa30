import { ValidationError } from '../errors/sluice-error.js';
import type { Column } from '../types/column.js';
import { withoutTimeAttribute } from '../types/logical-type.js';
import type { LogicalType } from '../types/logical-type.js';
import { parseLogicalType } from '../types/parse-logical-type.js';
import { ResolvedSchema } from '../types/schema.js';
import { typeToString } from '../types/type-to-string.js';
import type { CatalogBaseTable, CatalogDatabase, CatalogFunction } from './catalog-table.js';
import type { MaterializedTableDefinition } from './materialized-table.js';

/**
 * The on-disk form of catalog objects, kept close to the DDL a user wrote so the files can be read and
 * reviewed by people: types are Flink type strings (`DECIMAL(10, 2) NOT NULL`), expressions SQL text.
 * Documented in docs/catalog-format.md. `version` lets a later Sluice migrate old files.
 */
interface ColumnJson {
  name: string;
  kind: Column['kind'];
  type: string;
  timeAttribute?: 'ROWTIME' | 'PROCTIME';
  expression?: string;
  metadataKey?: string;
  virtual?: boolean;
  comment?: string;
}

interface SchemaJson {
  columns: ColumnJson[];
  watermark?: { rowtimeAttribute: string; expression: string };
  primaryKey?: { name: string; columns: string[] };
}

export interface TableJson {
  version: 1;
  kind: 'table' | 'view';
  schema: SchemaJson;
  comment?: string;
  partitionKeys?: string[];
  options?: Record<string, string>;
  originalQuery?: string;
  expandedQuery?: string;
  /** A materialized table's definition and refresh state, as stored (plain data). */
  materialized?: MaterializedTableDefinition;
}

export function schemaToJson(schema: ResolvedSchema): SchemaJson {
  const columns = schema.columns.map((c): ColumnJson => {
    const t: LogicalType = c.type;
    const out: ColumnJson = { name: c.name, kind: c.kind, type: typeToString(withoutTimeAttribute(t)) };
    if ((t.kind === 'TIMESTAMP' || t.kind === 'TIMESTAMP_LTZ') && t.timeAttribute === 'PROCTIME') out.timeAttribute = 'PROCTIME';
    if (c.kind === 'computed') out.expression = c.expression;
    if (c.kind === 'metadata') {
      if (c.metadataKey !== undefined) out.metadataKey = c.metadataKey;
      out.virtual = c.virtual;
    }
    if (c.comment !== undefined) out.comment = c.comment;
    return out;
  });
  const json: SchemaJson = { columns };
  const w = schema.watermarkSpecs[0];
  if (w) json.watermark = { rowtimeAttribute: w.rowtimeAttribute, expression: w.expression };
  if (schema.primaryKey) json.primaryKey = { name: schema.primaryKey.name, columns: [...schema.primaryKey.columns] };
  return json;
}

export function schemaFromJson(json: SchemaJson, where: string): ResolvedSchema {
  const columns = json.columns.map((c): Column => {
    let type = parseType(c.type, `${where}, column '${c.name}'`);
    if (c.timeAttribute === 'PROCTIME' && (type.kind === 'TIMESTAMP' || type.kind === 'TIMESTAMP_LTZ')) {
      type = { ...type, timeAttribute: 'PROCTIME' };
    }
    const comment = c.comment === undefined ? {} : { comment: c.comment };
    switch (c.kind) {
      case 'physical':
        return { kind: 'physical', name: c.name, type, ...comment };
      case 'computed':
        return { kind: 'computed', name: c.name, type, expression: c.expression ?? '', ...comment };
      case 'metadata':
        return {
          kind: 'metadata',
          name: c.name,
          type,
          virtual: c.virtual ?? false,
          ...(c.metadataKey === undefined ? {} : { metadataKey: c.metadataKey }),
          ...comment,
        };
      default:
        throw new ValidationError(`Catalog file ${where} has a column '${c.name}' of unknown kind '${String(c.kind)}'.`);
    }
  });
  return ResolvedSchema.of(columns, json.watermark ? [json.watermark] : [], json.primaryKey);
}

export function tableToJson(table: CatalogBaseTable): TableJson {
  const base: TableJson = { version: 1, kind: table.kind, schema: schemaToJson(table.schema) };
  if (table.comment !== undefined) base.comment = table.comment;
  if (table.kind === 'table') {
    base.partitionKeys = [...table.partitionKeys];
    base.options = { ...table.options };
    if (table.materialized !== undefined) base.materialized = table.materialized;
  } else {
    base.originalQuery = table.originalQuery;
    base.expandedQuery = table.expandedQuery;
  }
  return base;
}

export function tableFromJson(json: TableJson, where: string): CatalogBaseTable {
  if (json.version !== 1) throw new ValidationError(`Catalog file ${where} has unsupported version ${String(json.version)}.`);
  const schema = schemaFromJson(json.schema, where);
  const comment = json.comment === undefined ? {} : { comment: json.comment };
  if (json.kind === 'view') {
    return {
      kind: 'view',
      schema,
      originalQuery: json.originalQuery ?? '',
      expandedQuery: json.expandedQuery ?? json.originalQuery ?? '',
      ...comment,
    };
  }
  const materialized = json.materialized === undefined ? {} : { materialized: json.materialized };
  return { kind: 'table', schema, partitionKeys: json.partitionKeys ?? [], options: json.options ?? {}, ...comment, ...materialized };
}

export function databaseToJson(db: CatalogDatabase): object {
  return { version: 1, ...(db.comment === undefined ? {} : { comment: db.comment }), properties: db.properties };
}

export function databaseFromJson(json: { comment?: string; properties?: Record<string, string> }): CatalogDatabase {
  return { ...(json.comment === undefined ? {} : { comment: json.comment }), properties: json.properties ?? {} };
}

export function functionToJson(fn: CatalogFunction): object {
  return { version: 1, identifier: fn.identifier, language: fn.language };
}

export function functionFromJson(json: { identifier: string; language?: CatalogFunction['language'] }): CatalogFunction {
  return { identifier: json.identifier, language: json.language ?? 'JAVASCRIPT' };
}

function parseType(text: string, where: string): LogicalType {
  try {
    return parseLogicalType(text);
  } catch (e) {
    throw new ValidationError(`Catalog file ${where} has an invalid type '${text}': ${(e as Error).message}`, { cause: e });
  }
}
