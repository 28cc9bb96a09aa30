import type { SourcePosition } from '../position.js';
import type { DdlStatement } from './ddl.js';
import type { Expression } from './expressions.js';
import type { MaterializedTableStatement } from './materialized-table.js';
import type { Hint, Name, ObjectName, Property } from './names.js';
import type { Query } from './query.js';

/** A query used as a statement (SELECT, VALUES, WITH, set operations). */
export interface QueryStatement {
  readonly kind: 'query';
  readonly query: Query;
  readonly pos: SourcePosition;
}

/** One `key = value` of INSERT ... PARTITION (...); values are literals. */
export interface PartitionSpecEntry {
  readonly column: Name;
  readonly value: Expression;
}

export interface InsertStatement {
  readonly kind: 'insert';
  readonly overwrite: boolean;
  readonly table: ObjectName;
  readonly hints: readonly Hint[];
  readonly partition: readonly PartitionSpecEntry[];
  readonly columns: readonly Name[];
  readonly query: Query;
  readonly pos: SourcePosition;
}

/** `EXECUTE STATEMENT SET BEGIN insert; ... END`. */
export interface StatementSetStatement {
  readonly kind: 'statement-set';
  readonly inserts: readonly InsertStatement[];
  readonly pos: SourcePosition;
}

/** `BEGIN STATEMENT SET` (REPL form; inserts follow as separate statements until END). */
export interface BeginStatementSetStatement {
  readonly kind: 'begin-statement-set';
  readonly pos: SourcePosition;
}

/** `END` closing a BEGIN STATEMENT SET. */
export interface EndStatement {
  readonly kind: 'end';
  readonly pos: SourcePosition;
}

/** `EXECUTE insert` / `EXECUTE query`. */
export interface ExecuteStatement {
  readonly kind: 'execute';
  readonly statement: InsertStatement | QueryStatement;
  readonly pos: SourcePosition;
}

export type ExplainDetail = 'ESTIMATED_COST' | 'CHANGELOG_MODE' | 'JSON_EXECUTION_PLAN' | 'PLAN_ADVICE';

/** `EXPLAIN [PLAN FOR] [details] statement`. */
export interface ExplainStatement {
  readonly kind: 'explain';
  readonly details: readonly ExplainDetail[];
  readonly statement: QueryStatement | InsertStatement | StatementSetStatement;
  readonly pos: SourcePosition;
}

/** `SET` (key null: list all) or `SET 'k' = 'v'`. */
export interface SetStatement {
  readonly kind: 'set';
  readonly key: string | null;
  readonly value: string | null;
  readonly pos: SourcePosition;
}

/** `RESET` (key null: reset all) or `RESET 'k'`. */
export interface ResetStatement {
  readonly kind: 'reset';
  readonly key: string | null;
  readonly pos: SourcePosition;
}

export interface UseCatalogStatement {
  readonly kind: 'use-catalog';
  readonly name: Name;
  readonly pos: SourcePosition;
}

/** `USE db` or `USE cat.db`. */
export interface UseDatabaseStatement {
  readonly kind: 'use-database';
  readonly name: ObjectName;
  readonly pos: SourcePosition;
}

export interface UseModulesStatement {
  readonly kind: 'use-modules';
  readonly names: readonly Name[];
  readonly pos: SourcePosition;
}

export type ShowObject =
  | 'CATALOGS'
  | 'DATABASES'
  | 'TABLES'
  | 'MATERIALIZED TABLES'
  | 'VIEWS'
  | 'FUNCTIONS'
  | 'USER FUNCTIONS'
  | 'MODULES'
  | 'FULL MODULES'
  | 'JOBS'
  | 'JARS'
  | 'CURRENT CATALOG'
  | 'CURRENT DATABASE'
  | 'COLUMNS'
  | 'PROCEDURES'
  | 'PARTITIONS';

/** `[NOT] LIKE|ILIKE 'pattern'` of SHOW. */
export interface ShowLikeFilter {
  readonly negated: boolean;
  readonly caseInsensitive: boolean;
  readonly pattern: string;
}

/** SHOW ... [FROM|IN name] [[NOT] LIKE|ILIKE 'p']. */
export interface ShowStatement {
  readonly kind: 'show';
  readonly object: ShowObject;
  readonly from: { readonly preposition: 'FROM' | 'IN'; readonly name: ObjectName } | null;
  readonly like: ShowLikeFilter | null;
  readonly pos: SourcePosition;
}

export interface ShowCreateStatement {
  readonly kind: 'show-create';
  readonly objectType: 'TABLE' | 'MATERIALIZED TABLE' | 'VIEW' | 'CATALOG';
  readonly name: ObjectName;
  readonly pos: SourcePosition;
}

/** DESC|DESCRIBE [EXTENDED] t. */
export interface DescribeStatement {
  readonly kind: 'describe';
  readonly extended: boolean;
  readonly name: ObjectName;
  readonly pos: SourcePosition;
}

/** DESC|DESCRIBE CATALOG [EXTENDED] c. */
export interface DescribeCatalogStatement {
  readonly kind: 'describe-catalog';
  readonly extended: boolean;
  readonly name: Name;
  readonly pos: SourcePosition;
}

export interface StopJobStatement {
  readonly kind: 'stop-job';
  readonly jobId: string;
  readonly withSavepoint: boolean;
  readonly withDrain: boolean;
  readonly pos: SourcePosition;
}

export interface LoadModuleStatement {
  readonly kind: 'load-module';
  readonly name: Name;
  readonly options: readonly Property[];
  readonly pos: SourcePosition;
}

export interface UnloadModuleStatement {
  readonly kind: 'unload-module';
  readonly name: Name;
  readonly pos: SourcePosition;
}

/** ADD JAR '<path>' / REMOVE JAR '<path>'. */
export interface JarStatement {
  readonly kind: 'add-jar' | 'remove-jar';
  readonly path: string;
  readonly pos: SourcePosition;
}

/** SQL-client commands: HELP, QUIT/EXIT (both 'quit'), CLEAR. */
export interface ClientCommandStatement {
  readonly kind: 'help' | 'quit' | 'clear';
  readonly pos: SourcePosition;
}

/** TRUNCATE TABLE t. */
export interface TruncateTableStatement {
  readonly kind: 'truncate-table';
  readonly name: ObjectName;
  readonly pos: SourcePosition;
}

/** DELETE FROM t [WHERE cond]. */
export interface DeleteStatement {
  readonly kind: 'delete';
  readonly table: ObjectName;
  readonly where: Expression | null;
  readonly pos: SourcePosition;
}

/**
 * A statement of Flink's SQL that Sluice recognises but does not run (ANALYZE TABLE, CALL, COMPILE PLAN,
 * materialized tables, ...): it parses, so the user hears "not supported" rather than a parse error.
 */
export interface UnsupportedStatement {
  readonly kind: 'unsupported';
  /** The statement's leading words as Flink's docs name it: `ANALYZE TABLE`, `ALTER TABLE ... COMPACT`. */
  readonly name: string;
  /** The statement as written, without the `;`. */
  readonly text: string;
  readonly pos: SourcePosition;
  /** The last character of the leading words (inclusive), for an error's underline. */
  readonly end: SourcePosition;
}

/** Every statement; switch on `kind`. */
export type Statement =
  | DdlStatement
  | MaterializedTableStatement
  | QueryStatement
  | InsertStatement
  | StatementSetStatement
  | BeginStatementSetStatement
  | EndStatement
  | ExecuteStatement
  | ExplainStatement
  | SetStatement
  | ResetStatement
  | UseCatalogStatement
  | UseDatabaseStatement
  | UseModulesStatement
  | ShowStatement
  | ShowCreateStatement
  | DescribeStatement
  | DescribeCatalogStatement
  | StopJobStatement
  | LoadModuleStatement
  | UnloadModuleStatement
  | JarStatement
  | ClientCommandStatement
  | TruncateTableStatement
  | DeleteStatement
  | UnsupportedStatement;

export type StatementKind = Statement['kind'];

