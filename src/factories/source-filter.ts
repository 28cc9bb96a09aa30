import type { LogicalType } from '../types/logical-type.js';

/**
 * The filter representation the planner hands to sources (Flink's `ResolvedExpression` for
 * SupportsFilterPushDown): a small immutable tree that names columns and functions, so a connector needs
 * nothing from the planner to read it. Values are in the runtime representation (docs/values.md).
 */
export type SourceExpression = SourceFieldRef | SourceLiteral | SourceCall;

/**
 * A column of the table's physical row: `index` counts physical columns in schema order and is not
 * changed by projection push-down (Flink pushes filters before projections), so a source can resolve
 * it without knowing in which order the planner called its abilities.
 */
export interface SourceFieldRef {
  readonly kind: 'field';
  readonly name: string;
  readonly index: number;
  readonly type: LogicalType;
}

export interface SourceLiteral {
  readonly kind: 'literal';
  readonly value: unknown;
  readonly type: LogicalType;
}

/**
 * A function or operator call. `name` is the Flink built-in function name (`equals`, `greaterThan`,
 * `and`, `in`, `isNull`, ...; see FLINK_FUNCTION_NAMES), `sqlName` the SQL operator Sluice binds
 * (`=`, `>`, `AND`, `IN`, `IS NULL`, ...). For `in` the first argument is the tested value.
 */
export interface SourceCall {
  readonly kind: 'call';
  readonly name: string;
  readonly sqlName: string;
  readonly args: readonly SourceExpression[];
  readonly type: LogicalType;
}

/**
 * What `applyFilters` returns. Both lists hold the very objects the planner offered (compared by
 * identity). `accepted` filters are printed in the scan's EXPLAIN digest; `remaining` ones stay in the
 * Calc above the scan. A filter the source applies only on a best-effort basis (e.g. to skip files) is
 * in both; a filter in neither list is treated as remaining.
 */
export interface FilterPushDownResult {
  readonly accepted: readonly SourceExpression[];
  readonly remaining: readonly SourceExpression[];
}

/** A compiled filter: true only when the condition is TRUE (FALSE and NULL reject, as in WHERE). */
export type RowPredicate = (fields: readonly unknown[]) => boolean;

/**
 * The planner's expression engine, lent to a source that wants to run a filter on rows itself. Use it
 * at planning time (inside `applyFilters` or `getScanRuntimeProvider`), never per record: it generates
 * code. Synchronous.
 */
export interface FilterCompiler {
  /**
   * Compiles `filter` over rows whose field for a column is at `position(ref)` (by default the column's
   * physical index). Throws PlanningError for a call the engine does not implement.
   */
  compile(filter: SourceExpression, position?: (ref: SourceFieldRef) => number): RowPredicate;
}

/** Sluice's SQL operator names mapped to Flink's BuiltInFunctionDefinitions names. */
export const FLINK_FUNCTION_NAMES: ReadonlyMap<string, string> = new Map([
  ['=', 'equals'],
  ['<>', 'notEquals'],
  ['>', 'greaterThan'],
  ['>=', 'greaterThanOrEqual'],
  ['<', 'lessThan'],
  ['<=', 'lessThanOrEqual'],
  ['AND', 'and'],
  ['OR', 'or'],
  ['NOT', 'not'],
  ['IS NULL', 'isNull'],
  ['IS NOT NULL', 'isNotNull'],
  ['IS TRUE', 'isTrue'],
  ['IS FALSE', 'isFalse'],
  ['IS NOT TRUE', 'isNotTrue'],
  ['IS NOT FALSE', 'isNotFalse'],
  ['IN', 'in'],
  ['LIKE', 'like'],
  ['BETWEEN', 'between'],
  ['CAST', 'cast'],
  ['+', 'plus'],
  ['-', 'minus'],
  ['*', 'times'],
  ['/', 'divide'],
  ['%', 'mod'],
  ['UPPER', 'upper'],
  ['LOWER', 'lower'],
  ['||', 'concat'],
]);

/**
 * The literal values of `filter` when it is `column = literal` (either side) or `column IN (literals)`
 * over the given physical column; undefined for any other shape. A helper for sources that can only
 * skip by equality (partition-like columns, event types).
 */
export function equalityValues(filter: SourceExpression, columnIndex: number): readonly unknown[] | undefined {
  if (filter.kind !== 'call') return undefined;
  const isCol = (e: SourceExpression | undefined): boolean => e?.kind === 'field' && e.index === columnIndex;
  const lit = (e: SourceExpression | undefined): e is SourceLiteral => e?.kind === 'literal' && e.value !== null;
  const [a, b] = filter.args;
  if (filter.name === 'equals' && filter.args.length === 2) {
    if (isCol(a) && lit(b)) return [b.value];
    if (isCol(b) && lit(a)) return [a.value];
    return undefined;
  }
  if (filter.name === 'in' && isCol(a)) {
    const rest = filter.args.slice(1);
    return rest.every(lit) ? rest.map((l) => (l as SourceLiteral).value) : undefined;
  }
  return undefined;
}
