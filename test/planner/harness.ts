import { ObjectNotFoundError } from '../../src/errors/sluice-error.js';
import type { CatalogBaseTable, CatalogTable } from '../../src/catalog/catalog-table.js';
import { objectIdentifier } from '../../src/catalog/object-identifier.js';
import type { ObjectIdentifier } from '../../src/catalog/object-identifier.js';
import { ChangelogMode } from '../../src/factories/changelog-mode.js';
import type { DynamicTableSink } from '../../src/factories/dynamic-table-sink.js';
import type { DynamicTableSource, ScanTableSource } from '../../src/factories/dynamic-table-source.js';
import { executeJob } from '../../src/runtime/job-master.js';
import { defaultRuntimeConfig } from '../../src/runtime/runtime-config.js';
import type { Sink } from '../../src/runtime/sink/sink.js';
import { parseStatement } from '../../src/sql/parse.js';
import { planInsert, planQuery } from '../../src/planner/planner.js';
import type { PlannerContext } from '../../src/planner/planner.js';
import { ValuesSource } from '../../src/table-runtime/values-source.js';
import { Row } from '../../src/types/row.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import type { LogicalType } from '../../src/types/logical-type.js';
import { formatValue } from '../../src/types/values/format-value.js';
import { ResolvedSchema } from '../../src/types/schema.js';

/** A test table: fixed rows (with kinds), and what its sink received. */
export interface TestTable {
  readonly table: CatalogBaseTable;
  readonly rows?: Row[];
  readonly changelog?: ChangelogMode;
  readonly bounded?: boolean;
  /** For sinks: accepted mode; 'upsert' or 'all' or 'insert'. */
  readonly sinkMode?: 'insert' | 'upsert' | 'all';
  readonly written: Row[];
  /** Serve lookups (a LookupTableSource) instead of scans. */
  readonly lookup?: boolean;
  /** For sinks: its `sink.parallelism`. */
  readonly sinkParallelism?: number;
  /** For sinks: what each sink subtask received, in order (filled when given). */
  readonly bySubtask?: Row[][];
  /** Records what the planner pushed into the source. */
  readonly pushed: { projection?: readonly number[]; limit?: number; metadata?: readonly string[] };
}

export function testTable(schema: ResolvedSchema, rows: Row[] = [], extra: Partial<TestTable> = {}): TestTable {
  const table: CatalogTable = { kind: 'table', schema, partitionKeys: [], options: { connector: 'test' } };
  return { table, rows, written: [], pushed: {}, ...extra };
}

export class TestContext implements PlannerContext {
  readonly tables = new Map<string, TestTable>();
  readonly config: Map<string, string>;

  constructor(readonly mode: 'streaming' | 'batch', config: Record<string, string> = {}) {
    this.config = new Map(Object.entries(config));
  }

  add(name: string, t: TestTable): this {
    this.tables.set(name, t);
    return this;
  }

  async resolveTable(names: readonly string[]): Promise<{ identifier: ObjectIdentifier; table: CatalogBaseTable; isTemporary: boolean }> {
    const name = names[names.length - 1]!;
    const t = this.tables.get(name);
    // The binder reports the resolver's message, as the session's catalog manager words it (Calcite's).
    if (t === undefined) throw new ObjectNotFoundError(names.length === 1 ? `Object '${name}' not found` : `Object '${name}' not found within 'default_catalog.default_database'`);
    return { identifier: objectIdentifier('default_catalog', 'default_database', name), table: t.table, isTemporary: false };
  }

  createSource(id: ObjectIdentifier, _table: CatalogTable): DynamicTableSource {
    const t = this.tables.get(id.object)!;
    if (t.lookup === true) {
      return {
        kind: 'lookup-source',
        asSummaryString: () => id.object,
        lookup: (keyIndexes) => async (key) =>
          (t.rows ?? []).filter((r) => keyIndexes.every((k, i) => r.fields[k] === key[i])).map((r) => new Row(r.kind, r.fields.slice())),
      };
    }
    let projection: readonly number[] | null = null;
    const src: ScanTableSource = {
      kind: 'scan-source',
      getChangelogMode: () => t.changelog ?? ChangelogMode.insertOnly(),
      getScanRuntimeProvider: () => {
        const rows = (t.rows ?? []).map((r) => {
          const physical = projection === null ? r.fields.slice(0, r.fields.length) : projection.map((i) => r.fields[i]);
          return new Row(r.kind, physical);
        });
        return { source: new ValuesSource(rows), bounded: t.bounded ?? true };
      },
      asSummaryString: () => id.object,
      applyProjection: (idx) => {
        projection = idx;
        t.pushed.projection = idx;
        return true;
      },
      applyLimit: (n) => {
        t.pushed.limit = n;
      },
    };
    return src;
  }

  createSink(id: ObjectIdentifier): DynamicTableSink {
    const t = this.tables.get(id.object)!;
    const sink: Sink<Row> = {
      createWriter: (w) => ({
        write: (batch) => {
          for (const r of batch) t.written.push(r);
          if (t.bySubtask !== undefined) (t.bySubtask[w.subtaskIndex] ??= []).push(...batch);
        },
        flush: async () => {},
        close: async () => {},
      }),
    };
    return {
      getChangelogMode: (requested) =>
        t.sinkMode === 'upsert' ? ChangelogMode.upsert() : t.sinkMode === 'all' ? requested : ChangelogMode.insertOnly(),
      getSinkRuntimeProvider: () => (t.sinkParallelism === undefined ? { sink } : { sink, parallelism: t.sinkParallelism }),
      asSummaryString: () => id.object,
    };
  }
}

/** Runs a SELECT and returns the changelog rows. */
export async function runQuery(sql: string, ctx: TestContext): Promise<{ rows: Row[]; types: LogicalType[]; names: string[] }> {
  const stmt = parseStatement(sql);
  if (stmt.kind !== 'query') throw new Error('not a query');
  const planned = await planQuery(stmt.query, ctx);
  const rows: Row[] = [];
  let ended = false;
  const graph = planned.toJobGraph({ push: (b) => void rows.push(...b), end: () => (ended = true) });
  await executeJob(graph, defaultRuntimeConfig()).waitForCompletion();
  if (!ended) throw new Error('collector not ended');
  return { rows, types: planned.schema.columnTypes(), names: planned.schema.columnNames() };
}

export async function runInsert(sql: string, ctx: TestContext): Promise<void> {
  const stmt = parseStatement(sql);
  if (stmt.kind !== 'insert') throw new Error('not an insert');
  const planned = await planInsert(stmt, ctx);
  await executeJob(planned.toJobGraph(), defaultRuntimeConfig()).waitForCompletion();
}

/** `+I[1, a]` lines, as Flink's changelog printing. */
export function formatRows(rows: readonly Row[], types: readonly LogicalType[]): string[] {
  return rows.map((r) => `${rowKindShortString(r.kind)}[${r.fields.map((v, i) => formatValue(v, types[i]!)).join(', ')}]`);
}

/** The materialized result (insert/update-after add, update-before/delete remove), sorted. */
export function materialize(rows: readonly Row[], types: readonly LogicalType[]): string[] {
  const out: string[] = [];
  for (const line of formatRows(rows, types)) {
    const body = line.slice(2);
    if (line.startsWith('+I') || line.startsWith('+U')) out.push(body);
    else {
      const i = out.indexOf(body);
      if (i >= 0) out.splice(i, 1);
    }
  }
  return out.sort();
}
