import type { Catalog } from './catalog.js';

/** The units a freshness is kept in (the SQL's FRESHNESS units; the catalog does not depend on the parser). */
export type FreshnessUnit = 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY';

/** A streaming job that keeps the table fresh (CONTINUOUS), or batch jobs run on a schedule (FULL). */
export type RefreshMode = 'CONTINUOUS' | 'FULL';

/** A FRESHNESS as stored: a positive whole number of one unit (Flink's IntervalFreshness). */
export interface IntervalFreshness {
  readonly interval: number;
  readonly unit: FreshnessUnit;
}

/** Where a materialized table's refresh pipeline stands (Flink's CatalogMaterializedTable.RefreshStatus). */
export type RefreshStatus = 'INITIALIZING' | 'ACTIVATED' | 'SUSPENDED';

/**
 * Which job refreshes the table (Flink's ContinuousRefreshHandler): the id of its continuous refresh job, and after a
 * SUSPEND the savepoint the job stopped with, which RESUME starts the next job from.
 */
export interface RefreshHandler {
  readonly jobId: string;
  readonly savepointPath?: string;
}

/**
 * What makes a catalog table a materialized table (Flink's CatalogMaterializedTable, beyond the schema, partition keys,
 * options and comment it shares with a table): the query that fills it, as written and expanded with full names, its
 * freshness, the refresh mode declared (AUTOMATIC when REFRESH_MODE was not given) and the mode in effect, and the
 * state of its refresh pipeline.
 */
export interface MaterializedTableDefinition {
  readonly originalQuery: string;
  readonly expandedQuery: string;
  readonly freshness: IntervalFreshness;
  readonly logicalRefreshMode: RefreshMode | 'AUTOMATIC';
  readonly refreshMode: RefreshMode;
  readonly refreshStatus: RefreshStatus;
  readonly refreshHandler?: RefreshHandler;
}

/** A whole number of milliseconds a freshness stands for. */
export function freshnessMillis(f: IntervalFreshness): number {
  const unit = { SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000 }[f.unit];
  return f.interval * unit;
}

/**
 * A duration as a freshness in the largest unit that divides it (180 s is INTERVAL '3' MINUTE), as Flink's
 * IntervalFreshness.fromDuration does for the configured default freshness. Below a second, whole seconds rounded up.
 */
export function freshnessOfMillis(ms: number): IntervalFreshness {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds % 86_400 === 0) return { interval: seconds / 86_400, unit: 'DAY' };
  if (seconds % 3600 === 0) return { interval: seconds / 3600, unit: 'HOUR' };
  if (seconds % 60 === 0) return { interval: seconds / 60, unit: 'MINUTE' };
  return { interval: seconds, unit: 'SECOND' };
}

/** The materialized tables of a database, sorted (Flink's Catalog.listMaterializedTables). */
export async function listMaterializedTables(catalog: Catalog, database: string): Promise<string[]> {
  const names: string[] = [];
  for (const n of await catalog.listTables(database)) {
    const t = await catalog.getTable({ database, object: n });
    if (t.kind === 'table' && t.materialized !== undefined) names.push(n);
  }
  return names.sort();
}
