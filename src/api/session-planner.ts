import type { Expression } from '../sql/ast/expressions.js';
import type { Query } from '../sql/ast/query.js';
import type { InsertStatement } from '../sql/ast/statements.js';
import type { Column } from '../types/column.js';
import type { LogicalType } from '../types/logical-type.js';
import type { ResolvedSchema } from '../types/schema.js';
import type { PlannedInsert, PlannedQuery } from '../planner/planner-context.js';

/**
 * What statement execution asks of the planner, bound to one session (its catalogs, factories,
 * functions and configuration at the time of the call).
 */
export interface SessionPlanner {
  planQuery(query: Query): Promise<PlannedQuery>;
  /** One or more INSERTs planned into one job (a statement set shares sources where identical). */
  planInserts(inserts: readonly InsertStatement[]): Promise<PlannedInsert>;
  /** The schema a view's query produces, with the view's column aliases applied. */
  inferViewSchema(query: Query, columnAliases: readonly string[]): Promise<ResolvedSchema>;
  /** The type of a computed column's expression over the columns before it. */
  typeComputedColumn(expr: Expression, columns: readonly Column[]): LogicalType;
  /** `CREATE FUNCTION f AS 'module.js#export'`: imports the module and registers the function. */
  loadFunction(name: string, identifier: string, ignoreIfExists: boolean): Promise<void>;
  /** Removes a function registered by name; true if it existed. */
  unloadFunction(name: string): boolean;
}
