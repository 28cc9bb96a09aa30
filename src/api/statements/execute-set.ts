import { SESSION_OPTIONS, suggestSessionKeys, validateSessionOption } from '../../config/options/session-options.js';
import { maskSecrets } from '../../config/secrets.js';
import type { ResetStatement, SetStatement, UseCatalogStatement, UseDatabaseStatement } from '../../sql/ast/statements.js';
import { Columns } from '../../types/column.js';
import { DataTypes } from '../../types/data-types.js';
import { withNullability } from '../../types/logical-type.js';
import { Row } from '../../types/row.js';
import { ResolvedSchema } from '../../types/schema.js';
import type { Session } from '../session.js';
import { okResult, staticResult } from '../table-results.js';
import type { TableResult } from '../table-result.js';
import { ExecutionOptions } from '../../config/options/execution-options.js';
import { parseWorkerThreads } from '../runtime-config-from-session.js';
import { prewarmSqlWorkers } from '../worker-job.js';

const KEY_VALUE = ResolvedSchema.of([
  Columns.physical('key', withNullability(DataTypes.STRING(), false)),
  Columns.physical('value', withNullability(DataTypes.STRING(), false)),
]);

/**
 * `SET 'k' = 'v'` validates known session keys (a bad value is an error naming the key and what is
 * allowed). Unknown keys are kept, as in Flink, with a warning when they are a near miss of a known key,
 * since such a typo would otherwise be ignored without a word.
 */
export function executeSet(session: Session, stmt: SetStatement, warn: (message: string) => void): TableResult {
  if (stmt.key === null) {
    // The effective configuration: what was set, and the default of every session option that has one.
    const entries = new Map(Object.entries(maskSecrets(session.config.toMap())));
    for (const o of SESSION_OPTIONS) {
      if (!o.hasDefaultValue || o.defaultValue === undefined || o.defaultValue === null || o.allKeys().some((k) => entries.has(k))) continue;
      entries.set(o.key, o.formatValue(o.defaultValue as never));
    }
    const sorted = [...entries].sort(([a], [b]) => a.localeCompare(b));
    return staticResult('set', KEY_VALUE, sorted.map(([k, v]) => Row.insert(k, v)));
  }
  const value = stmt.value ?? '';
  const { known } = validateSessionOption(stmt.key, value);
  if (!known) {
    const near = suggestSessionKeys(stmt.key, 1)[0];
    if (near !== undefined) warn(`'${stmt.key}' is not a session option Sluice knows; did you mean '${near}'? The value is kept as given.`);
  }
  // Checked now rather than when a job starts, and the workers start loading while the session goes on.
  const workers = stmt.key === ExecutionOptions.WORKER_THREADS.key ? parseWorkerThreads(value) : undefined;
  session.config.set(stmt.key, value);
  if (workers !== undefined || stmt.key === ExecutionOptions.PARALLELISM.key) {
    prewarmSqlWorkers(workers ?? parseWorkerThreads(session.config.get(ExecutionOptions.WORKER_THREADS)), session.config.get(ExecutionOptions.PARALLELISM));
  }
  return okResult('set');
}

export function executeReset(session: Session, stmt: ResetStatement): TableResult {
  if (stmt.key === null) session.resetAll();
  else session.reset(stmt.key);
  return okResult('reset');
}

export async function executeUse(session: Session, stmt: UseCatalogStatement | UseDatabaseStatement): Promise<TableResult> {
  if (stmt.kind === 'use-catalog') {
    session.catalogs.setCurrentCatalog(stmt.name.value);
  } else {
    const parts = stmt.name.parts;
    if (parts.length === 2) {
      const prevCatalog = session.catalogs.currentCatalog;
      const prevDatabase = session.catalogs.currentDatabase;
      session.catalogs.setCurrentCatalog(parts[0]!);
      try {
        await session.catalogs.setCurrentDatabase(parts[1]!);
      } catch (e) {
        // A USE that fails changes nothing: the catalog and the database in use before, not that catalog's default.
        session.catalogs.setCurrentCatalog(prevCatalog);
        await session.catalogs.setCurrentDatabase(prevDatabase).catch(() => undefined);
        throw e;
      }
    } else {
      await session.catalogs.setCurrentDatabase(parts[0]!);
    }
  }
  return okResult('use');
}
