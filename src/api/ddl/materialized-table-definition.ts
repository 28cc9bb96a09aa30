import { freshnessMillis, freshnessOfMillis, type IntervalFreshness, type RefreshMode } from '../../catalog/materialized-table.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { MaterializedTableOptions } from '../../config/options/materialized-table-options.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { CreateMaterializedTableStatement } from '../../sql/ast/materialized-table.js';

/** The freshness and refresh mode a CREATE MATERIALIZED TABLE ends up with, and the mode it declared. */
export interface DerivedRefresh {
  readonly freshness: IntervalFreshness;
  readonly logicalRefreshMode: RefreshMode | 'AUTOMATIC';
  readonly refreshMode: RefreshMode;
}

/**
 * Flink 2.3's rules (MaterializedTableEnricher): without FRESHNESS the freshness is the configured default of the
 * declared mode ('materialized-table.default-freshness.continuous', 3 minutes, or '...full', 1 hour; the continuous
 * one when no mode is declared); without REFRESH_MODE the mode is CONTINUOUS when the freshness is below
 * 'materialized-table.refresh-mode.freshness-threshold' (30 minutes) and FULL otherwise.
 */
export function deriveRefresh(stmt: CreateMaterializedTableStatement, config: ReadableConfig): DerivedRefresh {
  const o = MaterializedTableOptions;
  const freshness: IntervalFreshness =
    stmt.freshness !== null
      ? { interval: Number(stmt.freshness.interval), unit: stmt.freshness.unit }
      : freshnessOfMillis(config.get(stmt.refreshMode === 'FULL' ? o.DEFAULT_FRESHNESS_FULL : o.DEFAULT_FRESHNESS_CONTINUOUS));
  if (stmt.refreshMode !== null) return { freshness, logicalRefreshMode: stmt.refreshMode, refreshMode: stmt.refreshMode };
  const refreshMode: RefreshMode = freshnessMillis(freshness) < config.get(o.FRESHNESS_THRESHOLD) ? 'CONTINUOUS' : 'FULL';
  return { freshness, logicalRefreshMode: 'AUTOMATIC', refreshMode };
}

/** `INTERVAL '3' MINUTE`, as SHOW CREATE MATERIALIZED TABLE and the messages print a freshness. */
export function freshnessToSql(f: IntervalFreshness): string {
  return `INTERVAL '${f.interval}' ${f.unit}`;
}

/**
 * FULL mode runs the query as batch jobs a workflow scheduler starts every FRESHNESS (Flink's gateway needs
 * 'workflow-scheduler.type' for it); Sluice has no scheduler, so the table is refused before anything is created,
 * saying how to get a CONTINUOUS one.
 */
export function fullModeRefused(name: string, derived: DerivedRefresh, config: ReadableConfig): ValidationError {
  const why =
    derived.logicalRefreshMode === 'FULL'
      ? 'REFRESH_MODE = FULL'
      : `its FRESHNESS ${freshnessToSql(derived.freshness)} is not below 'materialized-table.refresh-mode.freshness-threshold' (${config.get(MaterializedTableOptions.FRESHNESS_THRESHOLD) / 60_000} min), so its refresh mode is FULL`;
  return new ValidationError(
    `Materialized table ${name} cannot be created: ${why}, which needs a workflow scheduler to run its periodic batch refresh jobs, and Sluice has none. ` +
      'Sluice runs materialized tables in CONTINUOUS mode: write REFRESH_MODE = CONTINUOUS (a streaming job, checkpointed every FRESHNESS), or a FRESHNESS below the threshold.',
  );
}
