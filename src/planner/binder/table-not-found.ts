import { locateError, ObjectNotFoundError, ValidationError } from '../../errors/sluice-error.js';
import { rangeOf } from '../../sql/position.js';
import type { ObjectName } from '../../sql/ast/names.js';
import type { PlannerContext, ResolvedTable } from '../planner-context.js';
import { nearestName } from './suggest.js';

/**
 * Resolves a table name of a statement; when nothing has that name, fails with Flink's "Object '...' not
 * found", prefixed with Calcite's "From line L, column C to line L, column C2: " where the name is written (`positioned`: false
 * inside a view's stored query, whose positions are not the statement's), and a "did you mean" among the
 * tables and views of the same database and the names in `alsoKnown` (the query's CTEs).
 */
export async function resolveTableNamed(
  ctx: PlannerContext,
  name: ObjectName,
  options: { readonly positioned: boolean; readonly alsoKnown?: Iterable<string> } = { positioned: true },
): Promise<ResolvedTable> {
  try {
    return await ctx.resolveTable(name.parts);
  } catch (e) {
    if (!(e instanceof ObjectNotFoundError)) throw e;
    const last = name.parts[name.parts.length - 1]!;
    let candidates: string[] = [];
    try {
      candidates = (await ctx.listTableNames?.(name.parts)) ?? [];
    } catch {
      // A hint is best effort: a catalog that cannot list leaves the plain message.
    }
    if (name.parts.length === 1) candidates.push(...(options.alsoKnown ?? []));
    const near = nearestName(last, candidates.filter((c) => c !== last));
    const hint = near === undefined ? '' : `; did you mean '${[...name.parts.slice(0, -1), near].join('.')}'?`;
    const error = new ValidationError(`${e.message}${hint}`, { cause: e });
    throw options.positioned ? locateError(error, rangeOf(name)) : error;
  }
}
