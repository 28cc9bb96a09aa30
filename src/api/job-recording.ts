import { tableFromJson, tableToJson, type TableJson } from '../catalog/catalog-json.js';
import type { CatalogManager, ResolvedTable } from '../catalog/catalog-manager.js';
import { identifierToString, type ObjectIdentifier } from '../catalog/object-identifier.js';
import { ExecutionError, ObjectNotFoundError } from '../errors/sluice-error.js';
import { createDynamicTableSink, createDynamicTableSource } from '../factories/create-table-source-sink.js';
import type { DynamicTableFactoryContext } from '../factories/dynamic-table-factory.js';
import type { DynamicTableSink } from '../factories/dynamic-table-sink.js';
import type { DynamicTableSource } from '../factories/dynamic-table-source.js';
import { TableObjectRecorder, TableObjectReplayer, type CodeFactoryUse, type RecordedTableObject, type TableRole } from './code-table-replay.js';

/**
 * What a worker thread needs to plan a job as the main thread did (issue #19): every table name the main thread's
 * planning resolved and what it found, and what the sources and sinks built with code factories answered. A worker
 * never opens a catalog: a catalog may be a closure registered in code, or persistent (a file catalog, the Pravega
 * schema registry), where replaying the session's DDL would write again; and a table may have been created through
 * the TableEnvironment API, by CREATE TABLE AS SELECT, or in an earlier run. The answers are the catalogs' state as
 * the job was planned, which is the state the main thread's graph was built from.
 */

/** One table name the planning resolved: the table or view found (in the catalog files' JSON form), or the not-found message. */
type RecordedResolution =
  | { readonly names: readonly string[]; readonly identifier: ObjectIdentifier; readonly isTemporary: boolean; readonly table: TableJson }
  | { readonly names: readonly string[]; readonly notFound: string };

/** Structured-clonable: it travels in the worker recipe's payload. */
export interface RecordedJob {
  readonly resolutions: readonly RecordedResolution[];
  /** The answers of `listTableNames` (the "did you mean" hints of a name not found). */
  readonly tableNames: readonly { readonly names: readonly string[]; readonly found: readonly string[] }[];
  readonly objects: readonly RecordedTableObject[];
}

/** What the planner asks about tables while it plans one statement (planner-context.ts). */
export interface TableAccess {
  resolveTable(names: readonly string[]): Promise<ResolvedTable>;
  listTableNames(names: readonly string[]): Promise<string[]>;
  createSource(ctx: DynamicTableFactoryContext): DynamicTableSource;
  createSink(ctx: DynamicTableFactoryContext): DynamicTableSink;
}

/** On the main thread: answers from the session's catalogs and factories, recording every answer for the workers. */
export class JobRecorder implements TableAccess {
  /** Converted to their JSON form only if a worker needs them (most jobs run on one thread). */
  private readonly resolutions: ({ readonly names: readonly string[]; readonly found: ResolvedTable } | { readonly names: readonly string[]; readonly notFound: string })[] = [];
  private readonly tableNames: { names: readonly string[]; found: readonly string[] }[] = [];
  private readonly objects = new TableObjectRecorder();

  constructor(
    private readonly catalogs: CatalogManager,
    private readonly codeFactories: CodeFactoryUse,
  ) {}

  async resolveTable(names: readonly string[]): Promise<ResolvedTable> {
    try {
      const t = await this.catalogs.resolveTable(names);
      this.resolutions.push({ names: [...names], found: t });
      return t;
    } catch (e) {
      if (e instanceof ObjectNotFoundError) this.resolutions.push({ names: [...names], notFound: e.message });
      throw e;
    }
  }

  async listTableNames(names: readonly string[]): Promise<string[]> {
    const found = await this.catalogs.listTableNames(names);
    this.tableNames.push({ names: [...names], found: [...found] });
    return found;
  }

  createSource(ctx: DynamicTableFactoryContext): DynamicTableSource {
    return this.built(ctx, 'source', () => createDynamicTableSource(ctx));
  }

  createSink(ctx: DynamicTableFactoryContext): DynamicTableSink {
    return this.built(ctx, 'sink', () => createDynamicTableSink(ctx));
  }

  /** What workers need to plan the job, or why they cannot. */
  recorded(): RecordedJob | string {
    if (this.objects.unreplayable !== undefined) return this.objects.unreplayable;
    const resolutions: RecordedResolution[] = [];
    for (const r of this.resolutions) {
      if ('notFound' in r) {
        resolutions.push(r);
        continue;
      }
      const { identifier, isTemporary, table } = r.found;
      try {
        resolutions.push({ names: r.names, identifier, isTemporary, table: tableToJson(table) });
      } catch (e) {
        return `table '${identifierToString(identifier)}' cannot be sent to a worker thread (${e instanceof Error ? e.message : String(e)})`;
      }
    }
    return { resolutions, tableNames: [...this.tableNames], objects: [...this.objects.objects] };
  }

  private built<T extends object>(ctx: DynamicTableFactoryContext, role: TableRole, create: () => T): T {
    const { value, pin } = this.codeFactories.during(create);
    return pin === undefined ? value : this.objects.record(identifierToString(ctx.identifier), role, pin, value);
  }
}

/** In a worker: answers as the main thread's catalogs did; sources and sinks of code factories are stand-ins. */
export class JobReplayer implements TableAccess {
  private readonly objects: TableObjectReplayer;

  constructor(private readonly recorded: RecordedJob) {
    this.objects = new TableObjectReplayer(recorded.objects);
  }

  resolveTable(names: readonly string[]): Promise<ResolvedTable> {
    const r = this.recorded.resolutions.find((x) => sameNames(x.names, names));
    if (r === undefined) return Promise.reject(notAsked('resolved table', names));
    if ('notFound' in r) return Promise.reject(new ObjectNotFoundError(r.notFound));
    const where = `(table '${identifierToString(r.identifier)}' as the main thread resolved it)`;
    return Promise.resolve({ identifier: r.identifier, isTemporary: r.isTemporary, table: tableFromJson(r.table, where) });
  }

  listTableNames(names: readonly string[]): Promise<string[]> {
    const r = this.recorded.tableNames.find((x) => sameNames(x.names, names));
    return r === undefined ? Promise.reject(notAsked('listed the tables of', names)) : Promise.resolve([...r.found]);
  }

  createSource(ctx: DynamicTableFactoryContext): DynamicTableSource {
    return (this.objects.next('source', identifierToString(ctx.identifier)) as DynamicTableSource | undefined) ?? createDynamicTableSource(ctx);
  }

  createSink(ctx: DynamicTableFactoryContext): DynamicTableSink {
    return (this.objects.next('sink', identifierToString(ctx.identifier)) as DynamicTableSink | undefined) ?? createDynamicTableSink(ctx);
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

function notAsked(what: string, names: readonly string[]): ExecutionError {
  return new ExecutionError(`internal: a worker thread ${what} '${names.join('.')}', which the main thread's planning of the job did not`);
}
