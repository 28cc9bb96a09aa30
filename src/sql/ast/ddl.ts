import type { SourcePosition } from '../position.js';
import type { DataType } from './data-types.js';
import type { Expression } from './expressions.js';
import type { Name, ObjectName, Property } from './names.js';
import type { Query } from './query.js';

/** `a INT NOT NULL COMMENT 'x'`. */
export interface PhysicalColumn {
  readonly kind: 'physical';
  readonly name: Name;
  readonly type: DataType;
  readonly comment: string | null;
  readonly pos: SourcePosition;
}

/** `c AS expr [COMMENT 'x']`. */
export interface ComputedColumn {
  readonly kind: 'computed';
  readonly name: Name;
  readonly expr: Expression;
  readonly comment: string | null;
  readonly pos: SourcePosition;
}

/** `c TYPE METADATA [FROM 'key'] [VIRTUAL] [COMMENT 'x']`. */
export interface MetadataColumn {
  readonly kind: 'metadata';
  readonly name: Name;
  readonly type: DataType;
  readonly metadataKey: string | null;
  readonly virtual: boolean;
  readonly comment: string | null;
  readonly pos: SourcePosition;
}

export type TableColumn = PhysicalColumn | ComputedColumn | MetadataColumn;

/** `WATERMARK FOR ts AS expr`; `column` may be a nested path. */
export interface WatermarkDefinition {
  readonly column: readonly string[];
  readonly expr: Expression;
  readonly pos: SourcePosition;
}

/**
 * `[CONSTRAINT name] PRIMARY KEY (a, b) NOT ENFORCED`. A column-level `PRIMARY KEY NOT ENFORCED` is
 * normalised to this form. `enforced` is true only when NOT ENFORCED was missing (Flink rejects that
 * later, with a message saying so).
 */
export interface PrimaryKeyDefinition {
  readonly constraintName: string | null;
  readonly columns: readonly Name[];
  readonly enforced: boolean;
  readonly pos: SourcePosition;
}

export type LikeOptionFeature = 'ALL' | 'CONSTRAINTS' | 'GENERATED' | 'METADATA' | 'OPTIONS' | 'PARTITIONS' | 'WATERMARKS';

export interface LikeOption {
  readonly strategy: 'INCLUDING' | 'EXCLUDING' | 'OVERWRITING';
  readonly feature: LikeOptionFeature;
}

/** `LIKE source (INCLUDING ALL OVERWRITING OPTIONS ...)`. */
export interface LikeClause {
  readonly source: ObjectName;
  readonly options: readonly LikeOption[];
  readonly pos: SourcePosition;
}

/** CREATE [TEMPORARY] TABLE, including LIKE and CREATE TABLE ... AS SELECT (asQuery). */
export interface CreateTableStatement {
  readonly kind: 'create-table';
  readonly temporary: boolean;
  readonly ifNotExists: boolean;
  readonly name: ObjectName;
  readonly columns: readonly TableColumn[];
  readonly watermarks: readonly WatermarkDefinition[];
  readonly primaryKey: PrimaryKeyDefinition | null;
  readonly comment: string | null;
  readonly partitionedBy: readonly Name[];
  readonly options: readonly Property[];
  readonly like: LikeClause | null;
  readonly asQuery: Query | null;
  readonly pos: SourcePosition;
}

export interface CreateViewStatement {
  readonly kind: 'create-view';
  readonly temporary: boolean;
  readonly ifNotExists: boolean;
  readonly name: ObjectName;
  readonly columns: readonly Name[];
  readonly comment: string | null;
  readonly query: Query;
  readonly pos: SourcePosition;
}

export interface CreateCatalogStatement {
  readonly kind: 'create-catalog';
  readonly ifNotExists: boolean;
  readonly name: Name;
  readonly comment: string | null;
  readonly options: readonly Property[];
  readonly pos: SourcePosition;
}

export interface CreateDatabaseStatement {
  readonly kind: 'create-database';
  readonly ifNotExists: boolean;
  /** `db` or `cat.db`. */
  readonly name: ObjectName;
  readonly comment: string | null;
  readonly options: readonly Property[];
  readonly pos: SourcePosition;
}

export interface CreateFunctionStatement {
  readonly kind: 'create-function';
  readonly scope: 'catalog' | 'temporary' | 'temporary-system';
  readonly ifNotExists: boolean;
  readonly name: ObjectName;
  readonly className: string;
  readonly language: 'JAVA' | 'SCALA' | 'PYTHON' | 'JAVASCRIPT' | 'SQL' | null;
  /** `USING JAR '<path>' [, JAR '<path>']*`: the jars that hold a Java function's class, as Flink reads them. */
  readonly jars: readonly string[];
  readonly pos: SourcePosition;
}

/** DROP [TEMPORARY [SYSTEM]] TABLE|VIEW|FUNCTION|DATABASE|CATALOG [IF EXISTS] name [RESTRICT|CASCADE]. */
export interface DropStatement {
  readonly kind: 'drop';
  readonly objectType: 'TABLE' | 'VIEW' | 'FUNCTION' | 'DATABASE' | 'CATALOG';
  readonly scope: 'catalog' | 'temporary' | 'temporary-system';
  readonly ifExists: boolean;
  readonly name: ObjectName;
  /** Only for DATABASE. */
  readonly behavior: 'RESTRICT' | 'CASCADE' | null;
  readonly pos: SourcePosition;
}

export type ColumnPosition = { readonly kind: 'first' } | { readonly kind: 'after'; readonly column: Name };

/** One element of ALTER TABLE ADD/MODIFY. */
export type SchemaChange =
  | { readonly kind: 'column'; readonly column: TableColumn; readonly position: ColumnPosition | null }
  | { readonly kind: 'watermark'; readonly watermark: WatermarkDefinition }
  | { readonly kind: 'primary-key'; readonly primaryKey: PrimaryKeyDefinition };

export type AlterTableAction =
  | { readonly kind: 'rename'; readonly newName: ObjectName }
  | { readonly kind: 'set-options'; readonly options: readonly Property[] }
  | { readonly kind: 'reset-options'; readonly keys: readonly string[] }
  | { readonly kind: 'add'; readonly changes: readonly SchemaChange[] }
  | { readonly kind: 'modify'; readonly changes: readonly SchemaChange[] }
  | { readonly kind: 'drop-columns'; readonly columns: readonly Name[] }
  | { readonly kind: 'drop-primary-key' }
  | { readonly kind: 'drop-constraint'; readonly name: Name }
  | { readonly kind: 'drop-watermark' }
  | { readonly kind: 'rename-column'; readonly from: Name; readonly to: Name };

export interface AlterTableStatement {
  readonly kind: 'alter-table';
  readonly ifExists: boolean;
  readonly name: ObjectName;
  readonly action: AlterTableAction;
  readonly pos: SourcePosition;
}

export interface AlterViewStatement {
  readonly kind: 'alter-view';
  readonly name: ObjectName;
  readonly action: { readonly kind: 'rename'; readonly newName: ObjectName } | { readonly kind: 'as-query'; readonly query: Query };
  readonly pos: SourcePosition;
}

export interface AlterDatabaseStatement {
  readonly kind: 'alter-database';
  readonly name: ObjectName;
  readonly options: readonly Property[];
  readonly pos: SourcePosition;
}

/** ALTER CATALOG c SET (...) | RESET ('k', ...) | COMMENT '...'. */
export interface AlterCatalogStatement {
  readonly kind: 'alter-catalog';
  readonly name: Name;
  readonly action:
    | { readonly kind: 'set-options'; readonly options: readonly Property[] }
    /** May be empty, so that it fails as in Flink ("ALTER CATALOG RESET does not support empty key"). */
    | { readonly kind: 'reset-options'; readonly keys: readonly string[] }
    | { readonly kind: 'comment'; readonly comment: string };
  readonly pos: SourcePosition;
}

export type DdlStatement =
  | CreateTableStatement
  | CreateViewStatement
  | CreateCatalogStatement
  | CreateDatabaseStatement
  | CreateFunctionStatement
  | DropStatement
  | AlterTableStatement
  | AlterViewStatement
  | AlterDatabaseStatement
  | AlterCatalogStatement;
