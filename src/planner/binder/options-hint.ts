import { locateError, ValidationError } from '../../errors/sluice-error.js';
import type { CatalogBaseTable, CatalogTable } from '../../catalog/catalog-table.js';
import type { Hint } from '../../sql/ast/names.js';
import { rangeOf } from '../../sql/position.js';
import type { PlannerConfig } from '../planner-context.js';

const ENABLED_KEY = 'table.dynamic-table-options.enabled';

/**
 * A table with the `/*+ OPTIONS('k' = 'v') *\/` hints of one use merged over its WITH options, as Flink's
 * dynamic table options: the hint wins for this scan or this INSERT only, and the factory validates the
 * merged set as if the table had been declared with it. Hints of other names are left to their own rules.
 */
export function withOptionsHints<T extends CatalogBaseTable>(table: T, hints: readonly Hint[], config: PlannerConfig, name: string): T | CatalogTable {
  const options = hints.filter((h) => h.name.toUpperCase() === 'OPTIONS');
  if (options.length === 0) return table;
  const first = options[0]!;
  if ((config.get(ENABLED_KEY) ?? 'true').trim().toLowerCase() === 'false') {
    throw locateError(new ValidationError(`OPTIONS hint is allowed only when ${ENABLED_KEY} is set to true`), rangeOf(first));
  }
  if (table.kind !== 'table') {
    throw locateError(new ValidationError(`View '${name}' cannot be enriched with new options. Hints can only be applied to tables.`), rangeOf(first));
  }
  const merged: Record<string, string> = { ...table.options };
  for (const h of options) for (const p of h.kvOptions) merged[p.key] = p.value;
  return { ...table, options: merged };
}
