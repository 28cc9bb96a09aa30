import type { CatalogTable } from '../../catalog/catalog-table.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { CreateTableStatement, LikeOption, LikeOptionFeature, TableColumn } from '../../sql/ast/ddl.js';
import type { Expression } from '../../sql/ast/expressions.js';
import type { Column, WatermarkSpec } from '../../types/column.js';
import { defaultPrimaryKeyName } from '../../types/column.js';
import type { LogicalType } from '../../types/logical-type.js';
import { ResolvedSchema } from '../../types/schema.js';
import { logicalTypeOf } from '../../planner/binder/ast-type.js';
import { storedExpressionSql } from './stored-expression-sql.js';

/**
 * Types a computed column's expression over the columns declared before it (the planner's binder);
 * injected so DDL handling does not reach into planning internals.
 */
export type ExpressionTyper = (expr: Expression, columns: readonly Column[]) => LogicalType;

/**
 * The catalog table a CREATE TABLE describes, with a `LIKE` source merged in as Flink merges it:
 * the source's columns come first; per feature INCLUDING / EXCLUDING / OVERWRITING, by default
 * `INCLUDING ALL OVERWRITING OPTIONS`; a clash the strategy does not allow is an error naming it.
 */
export function catalogTableFromDdl(
  stmt: CreateTableStatement,
  typeOf: ExpressionTyper,
  likeSource?: CatalogTable,
): CatalogTable {
  const strategies = likeStrategies(stmt.like?.options ?? []);
  const columns: Column[] = [];
  const add = (c: Column, fromLike: boolean): void => {
    const i = columns.findIndex((x) => x.name === c.name);
    if (i >= 0) {
      const feature: LikeOptionFeature = c.kind === 'physical' ? 'ALL' : c.kind === 'computed' ? 'GENERATED' : 'METADATA';
      if (!fromLike && c.kind !== 'physical' && strategies.get(feature) === 'OVERWRITING') {
        columns[i] = c;
        return;
      }
      throw new ValidationError(
        `A column named '${c.name}' already exists in the ${fromLike ? 'table' : 'base table'}. Columns of a LIKE table can only be overwritten with OVERWRITING GENERATED or METADATA.`,
      );
    }
    columns.push(c);
  };

  if (likeSource) {
    for (const c of likeSource.schema.columns) {
      if (c.kind === 'computed' && strategies.get('GENERATED') === 'EXCLUDING') continue;
      if (c.kind === 'metadata' && strategies.get('METADATA') === 'EXCLUDING') continue;
      add(c, true);
    }
  }
  for (const c of stmt.columns) add(columnFromDdl(c, columns, typeOf), false);

  let watermarks: WatermarkSpec[] = stmt.watermarks.map((w) => ({
    rowtimeAttribute: w.column.join('.'),
    expression: storedExpressionSql(w.expr),
  }));
  if (likeSource && watermarks.length === 0 && strategies.get('WATERMARKS') !== 'EXCLUDING') {
    watermarks = [...likeSource.schema.watermarkSpecs];
  } else if (likeSource && likeSource.schema.watermarkSpecs.length > 0 && watermarks.length > 0 && strategies.get('WATERMARKS') !== 'OVERWRITING' && strategies.get('WATERMARKS') !== 'EXCLUDING') {
    throw new ValidationError(`There already exists a watermark spec for column '${likeSource.schema.watermarkSpecs[0]!.rowtimeAttribute}' in the base table. You might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS.`);
  }
  for (const w of stmt.watermarks) {
    if (w.column.length > 1) throw new ValidationError(`Nested rowtime attribute '${w.column.join('.')}' in a WATERMARK is not supported yet.`);
  }

  let primaryKey = undefined as { name: string; columns: string[] } | undefined;
  if (stmt.primaryKey) {
    if (stmt.primaryKey.enforced) {
      throw new ValidationError(
        `Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode`,
      );
    }
    const cols = stmt.primaryKey.columns.map((n) => n.value);
    primaryKey = { name: stmt.primaryKey.constraintName ?? defaultPrimaryKeyName(cols), columns: cols };
  }
  if (likeSource?.schema.primaryKey && strategies.get('CONSTRAINTS') !== 'EXCLUDING') {
    if (primaryKey) throw new ValidationError('The base table already has a primary key. You might want to specify EXCLUDING CONSTRAINTS.');
    primaryKey = { name: likeSource.schema.primaryKey.name, columns: [...likeSource.schema.primaryKey.columns] };
  }

  let partitionKeys = stmt.partitionedBy.map((n) => n.value);
  if (likeSource && likeSource.partitionKeys.length > 0 && strategies.get('PARTITIONS') !== 'EXCLUDING') {
    if (partitionKeys.length > 0) {
      throw new ValidationError('The base table already has partitions defined. You might want to specify EXCLUDING PARTITIONS.');
    }
    partitionKeys = [...likeSource.partitionKeys];
  }

  const ownOptions: Record<string, string> = {};
  for (const p of stmt.options) ownOptions[p.key] = p.value;
  let options = ownOptions;
  if (likeSource && strategies.get('OPTIONS') !== 'EXCLUDING') {
    for (const k of Object.keys(ownOptions)) {
      if (k in likeSource.options && strategies.get('OPTIONS') !== 'OVERWRITING') {
        throw new ValidationError(`There already exists an option ['${k}' -> '${likeSource.options[k]}'] in the base table. You might want to specify EXCLUDING OPTIONS or OVERWRITING OPTIONS.`);
      }
    }
    options = { ...likeSource.options, ...ownOptions };
  }

  const schema = ResolvedSchema.of(columns, watermarks, primaryKey);
  for (const k of partitionKeys) {
    if (!schema.findColumn(k)) throw new ValidationError(`Partition column '${k}' not defined in the table schema. Available columns: [${schema.columnNames().map((n) => `'${n}'`).join(', ')}]`);
  }
  return {
    kind: 'table',
    schema,
    partitionKeys,
    options,
    ...(stmt.comment === null ? {} : { comment: stmt.comment }),
  };
}

/** One column of a CREATE TABLE or ALTER TABLE ADD/MODIFY, computed columns typed over the columns before it. */
export function columnFromDdl(c: TableColumn, before: readonly Column[], typeOf: ExpressionTyper): Column {
  const comment = c.comment === null ? {} : { comment: c.comment };
  switch (c.kind) {
    case 'physical':
      return { kind: 'physical', name: c.name.value, type: logicalTypeOf(c.type), ...comment };
    case 'metadata':
      return {
        kind: 'metadata',
        name: c.name.value,
        type: logicalTypeOf(c.type),
        virtual: c.virtual,
        ...(c.metadataKey === null ? {} : { metadataKey: c.metadataKey }),
        ...comment,
      };
    case 'computed':
      return { kind: 'computed', name: c.name.value, type: typeOf(c.expr, before), expression: storedExpressionSql(c.expr), ...comment };
  }
}

/** Flink's default is INCLUDING ALL OVERWRITING OPTIONS; written options apply in order. */
function likeStrategies(options: readonly LikeOption[]): Map<LikeOptionFeature, LikeOption['strategy']> {
  const features: LikeOptionFeature[] = ['CONSTRAINTS', 'GENERATED', 'METADATA', 'OPTIONS', 'PARTITIONS', 'WATERMARKS'];
  const out = new Map<LikeOptionFeature, LikeOption['strategy']>(features.map((f) => [f, f === 'OPTIONS' ? 'OVERWRITING' : 'INCLUDING']));
  for (const o of options) {
    if (o.feature === 'ALL') for (const f of features) out.set(f, o.strategy);
    else out.set(o.feature, o.strategy);
  }
  return out;
}
