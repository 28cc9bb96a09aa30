import type { CreateTableStatement, PrimaryKeyDefinition, SchemaChange, TableColumn, WatermarkDefinition } from '../ast/ddl.js';
import type { Name, ObjectName, Property } from '../ast/names.js';
import type { InsertStatement, Statement, StatementSetStatement } from '../ast/statements.js';
import type { CreateMaterializedTableStatement } from '../ast/materialized-table.js';
import { quoteName, quoteNames, quoteString } from './identifiers.js';
import { unparseDataType } from './unparse-data-type.js';
import { unparseExpression } from './unparse-expression.js';
import { unparseHints, unparseQuery } from './unparse-query.js';

function obj(n: ObjectName): string {
  return quoteNames(n.parts);
}

function names(ns: readonly Name[]): string {
  return `(${ns.map((n) => quoteName(n.value)).join(', ')})`;
}

/** `(\n  'k' = 'v',\n  ...\n)` as SHOW CREATE TABLE prints it. */
function properties(props: readonly Property[]): string {
  if (props.length === 0) return '()';
  return `(\n${props.map((p) => `  ${quoteString(p.key)} = ${quoteString(p.value)}`).join(',\n')}\n)`;
}

function comment(c: string | null): string {
  return c === null ? '' : ` COMMENT ${quoteString(c)}`;
}

export function unparseColumn(c: TableColumn): string {
  const name = quoteName(c.name.value);
  switch (c.kind) {
    case 'physical':
      return `${name} ${unparseDataType(c.type)}${comment(c.comment)}`;
    case 'computed':
      return `${name} AS ${unparseExpression(c.expr)}${comment(c.comment)}`;
    case 'metadata':
      return `${name} ${unparseDataType(c.type)} METADATA${c.metadataKey === null ? '' : ` FROM ${quoteString(c.metadataKey)}`}${c.virtual ? ' VIRTUAL' : ''}${comment(c.comment)}`;
  }
}

export function unparseWatermark(w: WatermarkDefinition): string {
  return `WATERMARK FOR ${quoteNames(w.column)} AS ${unparseExpression(w.expr)}`;
}

export function unparsePrimaryKey(pk: PrimaryKeyDefinition): string {
  return `${pk.constraintName === null ? '' : `CONSTRAINT ${quoteName(pk.constraintName)} `}PRIMARY KEY ${names(pk.columns)}${pk.enforced ? '' : ' NOT ENFORCED'}`;
}

function createTable(s: CreateTableStatement): string {
  let out = `CREATE ${s.temporary ? 'TEMPORARY ' : ''}TABLE ${s.ifNotExists ? 'IF NOT EXISTS ' : ''}${obj(s.name)}`;
  const elements = [...s.columns.map(unparseColumn), ...s.watermarks.map(unparseWatermark)];
  if (s.primaryKey !== null) elements.push(unparsePrimaryKey(s.primaryKey));
  if (elements.length > 0) out += ` (\n${elements.map((e) => `  ${e}`).join(',\n')}\n)`;
  if (s.comment !== null) out += `\nCOMMENT ${quoteString(s.comment)}`;
  if (s.partitionedBy.length > 0) out += `\nPARTITIONED BY ${names(s.partitionedBy)}`;
  if (s.options.length > 0) out += `${s.comment === null && s.partitionedBy.length === 0 ? ' ' : '\n'}WITH ${properties(s.options)}`;
  if (s.like !== null) {
    out += `\nLIKE ${obj(s.like.source)}`;
    if (s.like.options.length > 0) out += ` (\n${s.like.options.map((o) => `  ${o.strategy} ${o.feature}`).join('\n')}\n)`;
  }
  if (s.asQuery !== null) out += `\nAS ${unparseQuery(s.asQuery)}`;
  return out;
}

function schemaChange(c: SchemaChange): string {
  switch (c.kind) {
    case 'column': {
      const pos = c.position === null ? '' : c.position.kind === 'first' ? ' FIRST' : ` AFTER ${quoteName(c.position.column.value)}`;
      return unparseColumn(c.column) + pos;
    }
    case 'watermark':
      return unparseWatermark(c.watermark);
    case 'primary-key':
      return unparsePrimaryKey(c.primaryKey);
  }
}

function insert(s: InsertStatement): string {
  let out = `INSERT ${s.overwrite ? 'OVERWRITE' : 'INTO'} ${obj(s.table)}`;
  if (s.hints.length > 0) out += ` ${unparseHints(s.hints)}`;
  if (s.partition.length > 0) out += ` PARTITION (${s.partition.map((p) => `${quoteName(p.column.value)} = ${unparseExpression(p.value)}`).join(', ')})`;
  if (s.columns.length > 0) out += ` ${names(s.columns)}`;
  return `${out}\n${unparseQuery(s.query)}`;
}

function statementSet(s: StatementSetStatement): string {
  return `EXECUTE STATEMENT SET\nBEGIN\n${s.inserts.map((i) => `${insert(i)};\n`).join('')}END`;
}

function scopeWord(scope: 'catalog' | 'temporary' | 'temporary-system'): string {
  return scope === 'catalog' ? '' : scope === 'temporary' ? 'TEMPORARY ' : 'TEMPORARY SYSTEM ';
}

function usingJars(jars: readonly string[]): string {
  return jars.length === 0 ? '' : ` USING ${jars.map((j) => `JAR ${quoteString(j)}`).join(', ')}`;
}

/**
 * Canonical Flink SQL for a statement, without a trailing `;`. CREATE TABLE is laid out as Flink's
 * SHOW CREATE TABLE prints it. parse(unparse(s)) equals s apart from positions.
 */
export function unparseStatement(s: Statement): string {
  switch (s.kind) {
    case 'create-table':
      return createTable(s);
    case 'create-view':
      return `CREATE ${s.temporary ? 'TEMPORARY ' : ''}VIEW ${s.ifNotExists ? 'IF NOT EXISTS ' : ''}${obj(s.name)}${s.columns.length > 0 ? ` ${names(s.columns)}` : ''}${comment(s.comment)} AS\n${unparseQuery(s.query)}`;
    case 'create-catalog':
      return `CREATE CATALOG ${s.ifNotExists ? 'IF NOT EXISTS ' : ''}${quoteName(s.name.value)}${comment(s.comment)} WITH ${properties(s.options)}`;
    case 'create-database':
      return `CREATE DATABASE ${s.ifNotExists ? 'IF NOT EXISTS ' : ''}${obj(s.name)}${comment(s.comment)}${s.options.length > 0 ? ` WITH ${properties(s.options)}` : ''}`;
    case 'create-function':
      return `CREATE ${scopeWord(s.scope)}FUNCTION ${s.ifNotExists ? 'IF NOT EXISTS ' : ''}${obj(s.name)} AS ${quoteString(s.className)}${s.language === null ? '' : ` LANGUAGE ${s.language}`}${usingJars(s.jars)}`;
    case 'drop':
      return `DROP ${scopeWord(s.scope)}${s.objectType} ${s.ifExists ? 'IF EXISTS ' : ''}${obj(s.name)}${s.behavior === null ? '' : ` ${s.behavior}`}`;
    case 'alter-table': {
      const head = `ALTER TABLE ${s.ifExists ? 'IF EXISTS ' : ''}${obj(s.name)}`;
      const a = s.action;
      switch (a.kind) {
        case 'rename':
          return `${head} RENAME TO ${obj(a.newName)}`;
        case 'set-options':
          return `${head} SET ${properties(a.options)}`;
        case 'reset-options':
          return `${head} RESET (${a.keys.map(quoteString).join(', ')})`;
        case 'add':
        case 'modify':
          return `${head} ${a.kind.toUpperCase()} (\n${a.changes.map((c) => `  ${schemaChange(c)}`).join(',\n')}\n)`;
        case 'drop-columns':
          return `${head} DROP ${names(a.columns)}`;
        case 'drop-primary-key':
          return `${head} DROP PRIMARY KEY`;
        case 'drop-constraint':
          return `${head} DROP CONSTRAINT ${quoteName(a.name.value)}`;
        case 'drop-watermark':
          return `${head} DROP WATERMARK`;
        case 'rename-column':
          return `${head} RENAME ${quoteName(a.from.value)} TO ${quoteName(a.to.value)}`;
      }
      break;
    }
    case 'alter-view':
      return s.action.kind === 'rename' ? `ALTER VIEW ${obj(s.name)} RENAME TO ${obj(s.action.newName)}` : `ALTER VIEW ${obj(s.name)} AS\n${unparseQuery(s.action.query)}`;
    case 'alter-database':
      return `ALTER DATABASE ${obj(s.name)} SET ${properties(s.options)}`;
    case 'alter-catalog': {
      const head = `ALTER CATALOG ${quoteName(s.name.value)}`;
      const a = s.action;
      if (a.kind === 'set-options') return `${head} SET ${properties(a.options)}`;
      if (a.kind === 'reset-options') return `${head} RESET (${a.keys.map(quoteString).join(', ')})`;
      return `${head} COMMENT ${quoteString(a.comment)}`;
    }
    case 'query':
      return unparseQuery(s.query);
    case 'insert':
      return insert(s);
    case 'statement-set':
      return statementSet(s);
    case 'begin-statement-set':
      return 'BEGIN STATEMENT SET';
    case 'end':
      return 'END';
    case 'execute':
      return `EXECUTE ${unparseStatement(s.statement)}`;
    case 'explain': {
      const inner = s.statement.kind === 'statement-set' ? statementSet(s.statement) : unparseStatement(s.statement);
      return `EXPLAIN ${s.details.length > 0 ? `${s.details.join(', ')} ` : ''}${inner}`;
    }
    case 'set':
      return s.key === null ? 'SET' : `SET ${quoteString(s.key)} = ${quoteString(s.value ?? '')}`;
    case 'reset':
      return s.key === null ? 'RESET' : `RESET ${quoteString(s.key)}`;
    case 'use-catalog':
      return `USE CATALOG ${quoteName(s.name.value)}`;
    case 'use-database':
      return `USE ${obj(s.name)}`;
    case 'use-modules':
      return `USE MODULES ${s.names.map((n) => quoteName(n.value)).join(', ')}`;
    case 'show': {
      let out = `SHOW ${s.object}`;
      if (s.from !== null) out += ` ${s.from.preposition} ${obj(s.from.name)}`;
      if (s.like !== null) out += ` ${s.like.negated ? 'NOT ' : ''}${s.like.caseInsensitive ? 'ILIKE' : 'LIKE'} ${quoteString(s.like.pattern)}`;
      return out;
    }
    case 'show-create':
      return `SHOW CREATE ${s.objectType} ${obj(s.name)}`;
    case 'describe':
      return `DESCRIBE ${s.extended ? 'EXTENDED ' : ''}${obj(s.name)}`;
    case 'describe-catalog':
      return `DESCRIBE CATALOG ${s.extended ? 'EXTENDED ' : ''}${quoteName(s.name.value)}`;
    case 'stop-job':
      return `STOP JOB ${quoteString(s.jobId)}${s.withSavepoint ? ' WITH SAVEPOINT' : ''}${s.withDrain ? ' WITH DRAIN' : ''}`;
    case 'load-module':
      return `LOAD MODULE ${quoteName(s.name.value)}${s.options.length > 0 ? ` WITH ${properties(s.options)}` : ''}`;
    case 'unload-module':
      return `UNLOAD MODULE ${quoteName(s.name.value)}`;
    case 'add-jar':
      return `ADD JAR ${quoteString(s.path)}`;
    case 'remove-jar':
      return `REMOVE JAR ${quoteString(s.path)}`;
    case 'help':
      return 'HELP';
    case 'quit':
      return 'QUIT';
    case 'clear':
      return 'CLEAR';
    case 'truncate-table':
      return `TRUNCATE TABLE ${obj(s.name)}`;
    case 'delete':
      return `DELETE FROM ${obj(s.table)}${s.where === null ? '' : ` WHERE ${unparseExpression(s.where)}`}`;
    case 'create-materialized-table':
      return createMaterializedTable(s);
    case 'drop-materialized-table':
      return `DROP MATERIALIZED TABLE ${s.ifExists ? 'IF EXISTS ' : ''}${obj(s.name)}`;
    case 'alter-materialized-table': {
      const head = `ALTER MATERIALIZED TABLE ${obj(s.name)}`;
      const a = s.action;
      if (a.kind === 'suspend') return `${head} SUSPEND`;
      if (a.kind === 'resume') return `${head} RESUME${a.options.length > 0 ? ` WITH ${properties(a.options)}` : ''}`;
      if (a.kind === 'as-query') return `${head} AS\n${unparseQuery(a.query)}`;
      return `${head} REFRESH${a.partition.length > 0 ? ` PARTITION (${a.partition.map((p) => `${quoteName(p.column.value)} = ${unparseExpression(p.value)}`).join(', ')})` : ''}`;
    }
    case 'unsupported':
      return s.text;
  }
}

function createMaterializedTable(s: CreateMaterializedTableStatement): string {
  let out = `CREATE ${s.orAlter ? 'OR ALTER ' : ''}MATERIALIZED TABLE ${obj(s.name)}`;
  const pk = s.primaryKey;
  if (pk !== null) {
    out += ` (${pk.constraintName === null ? '' : `CONSTRAINT ${quoteName(pk.constraintName)} `}PRIMARY KEY ${names(pk.columns)}${pk.enforced ? '' : ' NOT ENFORCED'})`;
  }
  out += comment(s.comment);
  if (s.partitionedBy.length > 0) out += `\nPARTITIONED BY ${names(s.partitionedBy)}`;
  if (s.options.length > 0) out += `\nWITH ${properties(s.options)}`;
  if (s.freshness !== null) out += `\nFRESHNESS = INTERVAL ${quoteString(s.freshness.interval)} ${s.freshness.unit}`;
  if (s.refreshMode !== null) out += `\nREFRESH_MODE = ${s.refreshMode}`;
  return `${out}\nAS ${unparseQuery(s.query)}`;
}
