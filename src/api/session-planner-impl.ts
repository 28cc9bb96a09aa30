import type { CatalogTable } from '../catalog/catalog-table.js';
import type { ObjectIdentifier } from '../catalog/object-identifier.js';
import { TableOptions } from '../config/options/table-options.js';
import { ObjectAlreadyExistsError, ValidationError } from '../errors/sluice-error.js';
import { createDynamicTableSink, createDynamicTableSource } from '../factories/create-table-source-sink.js';
import { withFactoriesLoaded } from '../factories/lazy-factory.js';
import { createTemporarySystemFunction } from '../planner/functions/udf.js';
import { inferViewSchema, planQuery, planStatementSet, resolveComputedColumnType } from '../planner/planner.js';
import type { PlannerContext } from '../planner/planner-context.js';
import { ResolvedSchema } from '../types/schema.js';
import type { Session } from './session.js';
import type { SessionPlanner } from './session-planner.js';
import { importUdf } from './import-udf.js';

/** The planner bound to a session: the session answers the planner's questions about tables and options. */
export function createSessionPlanner(session: Session): SessionPlanner {
  const context = (): PlannerContext => ({
    mode: session.mode,
    config: new Map(Object.entries(session.config.toMap())),
    resolveTable: (names) => session.catalogs.resolveTable(names),
    listTableNames: (names) => session.catalogs.listTableNames(names),
    createSource: (identifier: ObjectIdentifier, table: CatalogTable, isTemporary: boolean) =>
      createDynamicTableSource({ identifier, table, isTemporary, configuration: session.config, factories: session.factories }),
    createSink: (identifier: ObjectIdentifier, table: CatalogTable, isTemporary: boolean) =>
      createDynamicTableSink({ identifier, table, isTemporary, configuration: session.config, factories: session.factories }),
    functions: session.functions,
  });
  const timeZone = (): string => {
    const z = session.config.get(TableOptions.LOCAL_TIME_ZONE);
    return z === 'default' ? Intl.DateTimeFormat().resolvedOptions().timeZone : z;
  };
  return {
    // What code factories' sources and sinks answer is recorded per job, for workers to plan the same (code-table-replay.ts).
    planQuery: (query) => withFactoriesLoaded(() => (session.codeTables.startJob(), planQuery(query, context()))),
    planInserts: (inserts) => withFactoriesLoaded(() => (session.codeTables.startJob(), planStatementSet(inserts, context()))),
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
