import type { PlanNode } from '../logical/plan-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { builtinAggregate } from '../../table-runtime/aggregates/builtin-aggregates.js';
import { BUILTIN_AGGREGATES } from '../functions/aggregates/builtin-aggregate-types.js';

/**
 * Whether a filter condition can never be TRUE: FALSE or NULL, an AND with such a conjunct, or a CASE all of whose
 * results are such (`x > x` simplifies to CASE WHEN x IS NULL THEN NULL ELSE FALSE END).
 */
export function neverTrue(c: RexNode): boolean {
  if (c.kind === 'literal') return c.value !== true;
  if (c.kind !== 'call') return false;
  if (c.op === 'AND') return c.operands.some(neverTrue);
  if (c.op === 'OR') return c.operands.every(neverTrue);
  if (c.op === 'CASE') {
    // WHEN c1 THEN r1 ... ELSE e: the results are the odd operands and the last.
    const results = c.operands.filter((_, i) => i % 2 === 1 || i === c.operands.length - 1);
    return results.every(neverTrue);
  }
  return false;
}

/**
 * Whether `n` provably has no rows: empty VALUES, a calc whose condition is never TRUE or whose input has no rows,
 * a grouped aggregate of those (a global one has a row).
 */
export function provablyEmpty(n: PlanNode): boolean {
  if (n.kind === 'values') return n.rows.length === 0;
  if (n.kind === 'aggregate') return n.groupKeys.length > 0 && provablyEmpty(n.input);
  if (n.kind === 'calc') return (n.condition !== null && neverTrue(n.condition)) || provablyEmpty(n.input);
  return false;
}

/**
 * A global aggregate (no GROUP BY) over an input with provably no rows is its one row, computed while planning, as
 * Flink's rules reduce it (PruneEmptyRules, then AggregateValuesRule): `SELECT COUNT(*), SUM(x) FROM t WHERE x > x`
 * then answers (0, NULL) in streaming mode too, where an aggregate that receives no row emits nothing. Only built-in
 * aggregates, whose value over no rows the planner can compute; a user-defined one keeps its plan.
 */
export function reduceGlobalAggregateOfEmpty(n: PlanNode): PlanNode {
  if (n.kind !== 'aggregate' || n.groupKeys.length > 0 || n.window !== undefined || !provablyEmpty(n.input)) return n;
  if (!n.aggCalls.every((c) => BUILTIN_AGGREGATES.has(c.name))) return n;
  const inputTypes = n.input.fields.map((f) => f.type);
  const row = n.aggCalls.map((c) => {
    const f = builtinAggregate(
      c.name,
      c.args.map((i) => inputTypes[i]!),
      c.type,
    );
    return f.getValue(f.createAccumulator());
  });
  return { kind: 'values', rows: [row], fields: n.fields };
}
