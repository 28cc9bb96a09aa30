import type { CatalogTable } from '../catalog/catalog-table.js';
import type { ObjectIdentifier } from '../catalog/object-identifier.js';
import { TableOptions } from '../config/options/table-options.js';
import { ObjectAlreadyExistsError, ValidationError } from '../errors/sluice-error.js';
import { withFactoriesLoaded } from '../factories/lazy-factory.js';
import { createTemporarySystemFunction } from '../planner/functions/udf.js';
import { inferViewSchema, planQuery, planStatementSet, resolveComputedColumnType } from '../planner/planner.js';
import type { PlannerContext } from '../planner/planner-context.js';
import { ResolvedSchema } from '../types/schema.js';
import type { Session } from './session.js';
import type { SessionPlanner } from './session-planner.js';
import { importUdf } from './import-udf.js';
import { JobRecorder, type TableAccess } from './job-recording.js';

/**
 * The planner's view of a session, with tables answered by `tables`: on the main thread the session's catalogs and
 * factories, recorded for worker threads (job-recording.ts); in a worker, the recording.
 */
export function sessionPlannerContext(session: Session, tables: TableAccess): PlannerContext {
  return {
    mode: session.mode,
    config: new Map(Object.entries(session.config.toMap())),
    resolveTable: (names) => tables.resolveTable(names),
    listTableNames: (names) => tables.listTableNames(names),
    createSource: (identifier: ObjectIdentifier, table: CatalogTable, isTemporary: boolean) =>
      tables.createSource({ identifier, table, isTemporary, configuration: session.config, factories: session.factories }),
    createSink: (identifier: ObjectIdentifier, table: CatalogTable, isTemporary: boolean) =>
      tables.createSink({ identifier, table, isTemporary, configuration: session.config, factories: session.factories }),
    functions: session.functions,
  };
}

/** The planner bound to a session: the session answers the planner's questions about tables and options. */
export function createSessionPlanner(session: Session): SessionPlanner {
  const recorder = (): JobRecorder => new JobRecorder(session.catalogs, session.codeFactoryUse);
  const context = (): PlannerContext => sessionPlannerContext(session, recorder());
  /** Plans a job, keeping what its planning asked and was answered for the workers that plan it again. */
  const recorded = <T extends object>(plan: (ctx: PlannerContext) => Promise<T> | T): Promise<T> =>
    withFactoriesLoaded(async () => {
      const rec = recorder();
      const planned = await plan(sessionPlannerContext(session, rec));
      session.jobRecordings.set(planned, rec);
      return planned;
    });
  const timeZone = (): string => {
    const z = session.config.get(TableOptions.LOCAL_TIME_ZONE);
    return z === 'default' ? Intl.DateTimeFormat().resolvedOptions().timeZone : z;
  };
  return {
    planQuery: (query) => recorded((ctx) => planQuery(query, ctx)),
    planInserts: (inserts) => recorded((ctx) => planStatementSet(inserts, ctx)),
    async inferViewSchema(query, aliases) {
      const schema = await withFactoriesLoaded(() => inferViewSchema(query, context()));
      if (aliases.length === 0) return schema;
      if (aliases.length !== schema.columnCount) {
        throw new ValidationError(`The view has ${aliases.length} column names but its query produces ${schema.columnCount} columns.`);
      }
      return ResolvedSchema.of(schema.columns.map((c, i) => ({ ...c, name: aliases[i]! })));
    },
    typeComputedColumn: (expr, columns) =>
      resolveComputedColumnType(
        expr,
        columns.filter((c) => c.kind !== 'computed').map((c) => ({ name: c.name, type: c.type })),
        session.functions,
        timeZone(),
      ),
    async loadFunction(name, identifier, ignoreIfExists) {
      if (session.functions.has(name)) {
        if (ignoreIfExists) return;
        throw new ObjectAlreadyExistsError(`Function '${name}' already exists.`);
      }
      const udf = await importUdf(identifier, session.baseDir);
      createTemporarySystemFunction(session.functions, name, udf.value, `export '${udf.exportName}' of module '${udf.path}'`);
    },
    unloadFunction: (name) => session.functions.unregister(name),
  };
}
