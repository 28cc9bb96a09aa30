import { locateError, PlanningError, ValidationError } from '../errors/sluice-error.js';
import { mainThreadOnlyReason } from '../factories/main-thread-only.js';
import type { CatalogTable } from '../catalog/catalog-table.js';
import { identifierToString } from '../catalog/object-identifier.js';
import type { ObjectIdentifier } from '../catalog/object-identifier.js';
import type { DynamicTableSink } from '../factories/dynamic-table-sink.js';
import type { ObjectName } from '../sql/ast/names.js';
import { rangeOf } from '../sql/position.js';
import type { JobGraph } from '../runtime/job-graph.js';
import type { Expression } from '../sql/ast/expressions.js';
import type { Query } from '../sql/ast/query.js';
import type { InsertStatement, Statement } from '../sql/ast/statements.js';
import { isRowtimeAttribute, withNullability } from '../types/logical-type.js';
import type { LogicalType } from '../types/logical-type.js';
import type { Column, MetadataColumn } from '../types/column.js';
import { RowKind } from '../types/row-kind.js';
import { ResolvedSchema } from '../types/schema.js';
import { typeToString } from '../types/type-to-string.js';
import { CollectSink } from '../table-runtime/collect-sink.js';
import { dropUpdateBeforeFactory } from '../table-runtime/drop-update-before-operator.js';
import { bindExpression, castTo } from './binder/bind-expression.js';
import { defaultFunctions, QueryBinder, project } from './binder/bind-query.js';
import { Scope } from './binder/scope.js';
import { supportsImplicitCast } from './binder/sink-cast.js';
import { nameRange, queryColumnRange, queryColumnsRange } from './binder/query-ranges.js';
import { didYouMean } from './binder/suggest.js';
import type { FunctionLookup } from './functions/function-registry.js';
import { ChangelogInference } from './logical/changelog.js';
import { physicalNodeText } from './logical/explain-plan.js';
import { explainPlans } from './physical/explain-sections.js';
import { inputsOf } from './logical/plan-node.js';
import { streamingSortLimitAsTopN } from './rules/streaming-sort-limit.js';
import type { PlanField, PlanNode, SinkNode } from './logical/plan-node.js';
import { defaultParallelism } from './default-parallelism.js';
import { JobGraphBuilder } from './lowering/to-job-graph.js';
import { reuseSubplans } from './logical/subplan-reuse.js';
import type { ReuseOptions } from './logical/subplan-reuse.js';
import { type SinkExchange, sinkExchangeOf } from './physical/sink-exchange.js';
import { PhysicalPlanner } from './physical/physical-planner.js';
import type { LoweringOptions } from './lowering/to-job-graph.js';
import type { PlannedInsert, PlannedQuery, PlannerContext, ResultCollector } from './planner-context.js';
import { sessionTimeZone } from './planner-context.js';
import { literal } from './rex/rex-node.js';
import { optimize } from './rules/optimize.js';
import type { OptimizeOptions } from './rules/optimize.js';
import { aggregateCanMerge } from './rules/two-phase-window.js';
import { normalizeInsert, normalizeQuery } from './rules/changelog-normalize.js';
import type { NormalizeOptions } from './rules/changelog-normalize.js';
import { parseExpression } from '../sql/parse.js';
import { parseDuration } from '../config/units.js';
import { Configuration } from '../config/configuration.js';
import { TableOptions } from '../config/options/table-options.js';
import { resolveTableNamed } from './binder/table-not-found.js';
import { withOptionsHints } from './binder/options-hint.js';

export type { PlannedInsert, PlannedQuery, PlannerContext, ResultCollector, ResolvedTable, PlannerConfig } from './planner-context.js';

/** The options lowering `roots` reads; the parallelism is the session's, or chosen for the job when it sets none. */
function loweringOptions(ctx: PlannerContext, roots: readonly PlanNode[]): LoweringOptions {
  const text = ctx.config.get('parallelism.default');
  const p = text === undefined ? defaultParallelism(roots) : Number(text);
  return {
    mode: ctx.mode,
    parallelism: Number.isInteger(p) && p > 0 ? p : 1,
    timeZone: sessionTimeZone(ctx.config),
    functions: ctx.functions ?? defaultFunctions(),
    stateTtlMs: stateTtl(ctx),
    miniBatch: ctx.config.get('table.exec.mini-batch.enabled')?.trim().toLowerCase() === 'true',
  };
}

/** `table.exec.state.ttl` in ms (a duration such as '1 h' or plain ms); 0 when unset. */
function stateTtl(ctx: PlannerContext): number {
  const text = ctx.config.get('table.exec.state.ttl');
  if (text === undefined || text.trim() === '') return 0;
  const ms = parseDuration(text);
  if (ms === undefined) throw new ValidationError(`Could not parse value '${text}' for key 'table.exec.state.ttl' (a duration such as '1 h').`);
  return ms;
}

function timeZoneOf(ctx: PlannerContext): string {
  return sessionTimeZone(ctx.config);
}

/** `table.optimizer.reuse-sub-plan-enabled` and `table.optimizer.reuse-source-enabled`. */
function reuseOptions(ctx: PlannerContext): ReuseOptions {
  const conf = new Configuration(ctx.config);
  return { subPlan: conf.get(TableOptions.REUSE_SUB_PLAN_ENABLED), source: conf.get(TableOptions.REUSE_SOURCE_ENABLED) };
}

function normalizeOptions(ctx: PlannerContext): NormalizeOptions {
  return { cdcEventsDuplicate: ctx.config.get('table.exec.source.cdc-events-duplicate')?.trim().toLowerCase() === 'true' };
}

/**
 * The optimizer's options: the session time zone, which scans keep their primary key for a ChangelogNormalize,
 * and whether window aggregates are split in two phases (`table.optimizer.agg-phase-strategy`).
 */
function optimizeOptions(ctx: PlannerContext): OptimizeOptions {
  const functions = ctx.functions ?? defaultFunctions();
  return {
    timeZone: timeZoneOf(ctx),
    mode: ctx.mode,
    ...normalizeOptions(ctx),
    twoPhaseWindow: {
      mode: ctx.mode,
      strategy: new Configuration(ctx.config).get(TableOptions.AGG_PHASE_STRATEGY),
      canMerge: (call, argTypes) => aggregateCanMerge(functions, call, argTypes),
    },
  };
}

/** In streaming mode an ORDER BY ... LIMIT becomes a Top-N; any other ORDER BY must sort by time first. */
function sortsForMode(n: PlanNode, mode: 'streaming' | 'batch'): PlanNode {
  if (mode === 'batch') return n;
  const planned = streamingSortLimitAsTopN(n);
  checkStreamingSort(planned, mode);
  return planned;
}

/** Streaming ORDER BY must start with an ascending time attribute (Flink's rule). */
function checkStreamingSort(n: PlanNode, mode: 'streaming' | 'batch'): void {
  if (mode === 'streaming' && n.kind === 'sort' && n.keys.length > 0) {
    const first = n.keys[0]!;
    const t = n.fields[first.index]!.type;
    if (!isRowtimeAttribute(t) || first.descending) throw new PlanningError('Sort on a non-time-attribute field is not supported.');
  }
  for (const c of inputsOf(n)) checkStreamingSort(c, mode);
}

function schemaOf(fields: readonly PlanField[]): ResolvedSchema {
  return ResolvedSchema.fromRowType({ kind: 'ROW', fields: fields.map((f) => ({ name: f.name, type: f.type })), nullable: false });
}

/**
 * Plans a SELECT (or VALUES / WITH / set operation). The plan is bound, checked and optimized here; the
 * job graph is built on each `toJobGraph` call.
 * @throws ValidationError / ObjectNotFoundError / PlanningError naming the culprit.
 */
export async function planQuery(query: Query, ctx: PlannerContext): Promise<PlannedQuery> {
  const binder = new QueryBinder(ctx);
  const logical = await binder.bindQuery(query);
  // EXPLAIN's AST shows the query as bound (a LogicalSort, as Flink's); the plans below it the Top-N.
  const rewritten = optimize(sortsForMode(logical, ctx.mode), optimizeOptions(ctx));
  const optimized = ctx.mode === 'streaming' ? normalizeQuery(rewritten, normalizeOptions(ctx)) : rewritten;
  const changelogMode = new PhysicalPlanner(ctx.mode).of(optimized).changelog;
  const schema = schemaOf(logical.fields);
  const options = loweringOptions(ctx, [optimized]);
  const reuse = reuseOptions(ctx);
  const toJobGraph = (collector: ResultCollector, jobName = 'collect'): JobGraph => {
    const b = new JobGraphBuilder(options);
    const [root] = b.planShared(reuseSubplans([optimized], reuse));
    const out = b.lower(root!);
    b.addSink(out, 'collect', new CollectSink(collector), 1, [], { mainThread: 'it hands the rows to the caller' });
    return b.build(jobName);
  };
  return {
    kind: 'query',
    schema,
    changelogMode,
    explain: (details = []) => {
      const jobGraph = (): JobGraph => toJobGraph({ push: () => undefined, end: () => undefined });
      return explainPlans({ logical: [logical], optimized: [optimized], mode: ctx.mode, jobGraph, isQuery: true, reuse, config: ctx.config }, details);
    },
    toJobGraph,
  };
}

interface BoundInsert {
  readonly logical: SinkNode;
  readonly optimized: SinkNode;
  readonly dropUpdateBefore: boolean;
  /** The target table's name in the statement, where lowering errors about the sink point. */
  readonly tableName: ObjectName;
}

/** The sink of an INSERT; a bad option of the table is reported at the table's name in the statement. */
function createSinkAt(ctx: PlannerContext, name: ObjectName, id: ObjectIdentifier, table: CatalogTable, isTemporary: boolean): DynamicTableSink {
  try {
    return ctx.createSink(id, table, isTemporary);
  } catch (e) {
    if (e instanceof ValidationError) locateError(e, rangeOf(name));
    throw e;
  }
}

async function bindInsert(insert: InsertStatement, ctx: PlannerContext): Promise<BoundInsert> {
  const binder = new QueryBinder(ctx);
  const resolved = await resolveTableNamed(ctx, insert.table);
  const id = resolved.identifier;
  if (resolved.table.kind !== 'table') throw new ValidationError(`Cannot insert into view '${identifierToString(id)}'; a view is read-only.`);
  const table: CatalogTable = withOptionsHints(resolved.table, insert.hints, ctx.config, identifierToString(id));
  const query = await binder.bindQuery(insert.query);
  sortsForMode(query, ctx.mode);
  const sinkColumns = table.schema.persistedColumns();
  const partition = new Map<string, string>();
  const partitionExprs = new Map<string, Expression>();
  for (const p of insert.partition) {
    partitionExprs.set(p.column.value, p.value);
    partition.set(p.column.value, p.value.kind === 'string-literal' ? p.value.value : p.value.kind === 'numeric-literal' ? p.value.text : String(p.value.kind));
  }
  // Which query column feeds which sink column (null: NULL, or the static partition value).
  const explicit = insert.columns.map((c) => c.value);
  for (const c of explicit) {
    if (!sinkColumns.some((s) => s.name === c)) {
      const name = insert.columns.find((n) => n.value === c)!;
      const hint = didYouMean(c, sinkColumns.map((s) => s.name));
      throw locateError(new ValidationError(`Unknown target column '${c}' of table '${identifierToString(id)}'${hint}`), nameRange(name));
    }
  }
  const targetNames = explicit.length > 0 ? explicit : sinkColumns.map((c) => c.name).filter((n) => !partitionExprs.has(n));
  if (query.fields.length !== targetNames.length) {
    throw locateError(new ValidationError(
      `Column types of query result and sink for '${identifierToString(id)}' do not match.\nCause: Different number of columns.\n\n` +
        `Query schema: [${query.fields.map((f) => `${f.name}: ${typeToString(f.type)}`).join(', ')}]\n` +
        `Sink schema:  [${sinkColumns.map((c) => `${c.name}: ${typeToString(c.type)}`).join(', ')}]`,
    ), queryColumnsRange(insert.query));
  }
  const queryName = (i: number): string => `${query.fields[i]!.name}: ${typeToString(query.fields[i]!.type)}`;
  sinkColumns.forEach((c, pos) => {
    const qi = targetNames.indexOf(c.name);
    if (qi < 0 || supportsImplicitCast(query.fields[qi]!.type, c.type)) return;
    throw locateError(new ValidationError(
      `Column types of query result and sink for '${identifierToString(id)}' do not match.\nCause: Incompatible types for sink column '${c.name}' at position ${pos}.\n\n` +
        `Query schema: [${query.fields.map((_, i) => queryName(i)).join(', ')}]\n` +
        `Sink schema:  [${sinkColumns.map((x) => `${x.name}: ${typeToString(x.type)}`).join(', ')}]`,
    ), queryColumnRange(insert.query, qi));
  });
  // A sink consumes its physical columns, then the writable metadata columns in the order applied.
  const consumed = [...sinkColumns.filter((c) => c.kind === 'physical'), ...sinkColumns.filter((c) => c.kind === 'metadata')];
  const empty = binder.exprContext(new Scope([]));
  const projects = consumed.map((c) => {
    const qi = targetNames.indexOf(c.name);
    if (qi >= 0) {
      const f = query.fields[qi]!;
      return castTo({ kind: 'input-ref', index: qi, name: f.name, type: f.type }, sinkType(c.type, f.type));
    }
    const pe = partitionExprs.get(c.name);
    if (pe !== undefined) return castTo(bindExpression(pe, empty), c.type);
    if (!c.type.nullable) throw new ValidationError(`Column '${c.name}' of table '${identifierToString(id)}' is NOT NULL and has no value in the INSERT`);
    return literal(null, c.type);
  });
  // Flink names the sink's input as the query does, unless an implicit cast is needed: then every column gets
  // the sink's name (RelOptUtil.createCastRel). An omitted column is Calcite's EXPR$i, a static partition value
  // its column's name. The Sink prints its input's names.
  const casts = consumed.some((c, i) => targetNames.includes(c.name) && projects[i]!.kind === 'call');
  const names = consumed.map((c, i) => {
    const qi = targetNames.indexOf(c.name);
    if (casts || partitionExprs.has(c.name)) return c.name;
    return qi >= 0 ? query.fields[qi]!.name : `EXPR$${i}`;
  });
  const input = project(query, projects, names);
  const sink = createSinkAt(ctx, insert.table, id, table, resolved.isTemporary);
  applyWritableMetadata(sink, consumed, id);
  if (insert.overwrite) {
    if (sink.applyOverwrite === undefined) {
      throw new ValidationError(`INSERT OVERWRITE requires that the underlying DynamicTableSink of table '${identifierToString(id)}' implements the SupportsOverwrite interface.`);
    }
    sink.applyOverwrite(true);
  }
  if (partition.size > 0) {
    if (sink.applyStaticPartition === undefined) throw new ValidationError(`Table '${identifierToString(id)}' is not partitioned, but a partition spec was given.`);
    sink.applyStaticPartition(partition);
  }
  const logical: SinkNode = {
    kind: 'sink',
    input,
    identifier: id,
    sink,
    table,
    overwrite: insert.overwrite,
    staticPartition: partition,
    fields: consumed.map((c) => ({ name: c.name, type: c.type })),
  };
  const rewritten = optimize(sortsForMode(logical, ctx.mode), optimizeOptions(ctx)) as SinkNode;
  const optimized = ctx.mode === 'streaming' ? normalizeInsert(rewritten, normalizeOptions(ctx)) : rewritten;
  const dropUpdateBefore = checkSinkChangelog(optimized, sink, id, ctx.mode);
  return { logical, optimized, dropUpdateBefore, tableName: insert.table };
}

/**
 * Tells the sink which metadata it receives after the physical columns (Flink's SupportsWritingMetadata),
 * with Flink's message for a key the connector cannot write.
 */
function applyWritableMetadata(sink: DynamicTableSink, consumed: readonly Column[], id: ObjectIdentifier): void {
  const meta = consumed.filter((c): c is MetadataColumn => c.kind === 'metadata');
  if (meta.length === 0) return;
  const writable = sink.listWritableMetadata?.() ?? new Map<string, LogicalType>();
  for (const c of meta) {
    const key = c.metadataKey ?? c.name;
    if (!writable.has(key)) {
      throw new ValidationError(
        `Invalid metadata key '${key}' in column '${c.name}' of table '${identifierToString(id)}'. The sink ${sink.asSummaryString()} supports the following metadata keys for writing:\n${[...writable.keys()].join('\n') || '(none)'}`,
      );
    }
  }
  sink.applyWritableMetadata!(
    meta.map((c) => c.metadataKey ?? c.name),
    { kind: 'ROW', nullable: false, fields: consumed.map((c) => ({ name: c.name, type: c.type })) },
  );
}

/** The sink column's type, keeping the query's nullability for the implicit cast. */
function sinkType(sinkT: LogicalType, queryT: LogicalType): LogicalType {
  const t = withNullability(sinkT, queryT.nullable);
  // A rowtime attribute is written as the timestamp it is: Flink materializes it without a CAST.
  const plain = (x: LogicalType): string => JSON.stringify({ ...x, timeAttribute: undefined });
  return isRowtimeAttribute(queryT) && plain(queryT) === plain(t) ? queryT : t;
}

/** Rejects updates a sink cannot take; returns true when -U rows must be dropped (upsert sink). */
function checkSinkChangelog(node: SinkNode, sink: DynamicTableSink, id: ObjectIdentifier, mode: 'streaming' | 'batch'): boolean {
  const inference = new ChangelogInference(mode);
  const produced = inference.of(node.input);
  if (produced.isInsertOnly()) return false;
  const accepted = sink.getChangelogMode(produced);
  const origin = physicalNodeText(inference.originOf(node.input), mode);
  const name = identifierToString(id);
  const updates = produced.contains(RowKind.UPDATE_AFTER) || produced.contains(RowKind.UPDATE_BEFORE);
  if (updates && !accepted.contains(RowKind.UPDATE_AFTER)) {
    const what = produced.contains(RowKind.DELETE) && !accepted.contains(RowKind.DELETE) ? 'update and delete changes' : 'update changes';
    throw new PlanningError(`Table sink '${name}' doesn't support consuming ${what} which is produced by node ${origin}`);
  }
  if (produced.contains(RowKind.DELETE) && !accepted.contains(RowKind.DELETE)) {
    throw new PlanningError(`Table sink '${name}' doesn't support consuming delete changes which is produced by node ${origin}`);
  }
  return produced.contains(RowKind.UPDATE_BEFORE) && !accepted.contains(RowKind.UPDATE_BEFORE);
}

function lowerInserts(bound: readonly BoundInsert[], ctx: PlannerContext, jobName: string): JobGraph {
  const b = new JobGraphBuilder(loweringOptions(ctx, bound.map((x) => x.optimized)));
  const keyedShuffle = new Configuration(ctx.config).get(TableOptions.SINK_KEYED_SHUFFLE);
  const roots = b.planShared(reuseSubplans(bound.map((x) => x.optimized), reuseOptions(ctx)));
  for (const [i, ins] of bound.entries()) {
    const s = ins.optimized;
    // The sink over its input as sub-plan reuse rebuilt it (a sink itself is never shared).
    const sink = roots[i] as SinkNode;
    const out = b.lower(sink.input);
    const provider = s.sink.getSinkRuntimeProvider({ bounded: ctx.mode === 'batch' });
    const ops = ins.dropUpdateBefore ? [dropUpdateBeforeFactory()] : [];
    const parallelism = provider.parallelism ?? out.parallelism;
    let exchange: SinkExchange;
    try {
      exchange = sinkExchangeOf(b.physical.of(sink), { sink: parallelism, input: out.parallelism }, keyedShuffle);
    } catch (e) {
      throw e instanceof PlanningError ? locateError(e, rangeOf(ins.tableName)) : e;
    }
    const name = physicalNodeText(s, ctx.mode);
    const pin = mainThreadOnlyReason(s.sink);
    b.addSink(out, name, provider.sink, parallelism, ops, {
      ...(exchange.kind === 'keyed' ? { keyBy: exchange.keys } : {}),
      ...(pin === undefined ? {} : { mainThread: `${name} (${pin})` }),
    });
  }
  return b.build(jobName);
}

function insertJobName(bound: readonly BoundInsert[]): string {
  return `insert-into_${bound.map((b) => identifierToString(b.optimized.identifier)).join(',')}`;
}

/** Plans INSERT INTO / OVERWRITE [PARTITION]. */
export async function planInsert(insert: InsertStatement, ctx: PlannerContext): Promise<PlannedInsert> {
  return planStatementSet([insert], ctx);
}

/** Plans several INSERTs into one job graph (EXECUTE STATEMENT SET). */
export async function planStatementSet(inserts: readonly InsertStatement[], ctx: PlannerContext): Promise<PlannedInsert> {
  if (inserts.length === 0) throw new ValidationError('A statement set must contain at least one INSERT statement.');
  const bound: BoundInsert[] = [];
  for (const i of inserts) bound.push(await bindInsert(i, ctx));
  return {
    kind: 'insert',
    sinks: bound.map((b) => b.optimized.identifier),
    explain: (details = []) =>
      explainPlans(
        {
          logical: bound.map((b) => b.logical),
          optimized: bound.map((b) => b.optimized),
          mode: ctx.mode,
          jobGraph: () => lowerInserts(bound, ctx, insertJobName(bound)),
          isQuery: false,
          reuse: reuseOptions(ctx),
          config: ctx.config,
        },
        details,
      ),
    toJobGraph: (jobName = insertJobName(bound)) => lowerInserts(bound, ctx, jobName),
  };
}

/** EXPLAIN of a query, INSERT or statement set; `details` are EXPLAIN's keywords (CHANGELOG_MODE, ...). */
export async function explain(stmt: Statement, ctx: PlannerContext, details: readonly string[] = []): Promise<string> {
  switch (stmt.kind) {
    case 'query':
      return (await planQuery(stmt.query, ctx)).explain(details);
    case 'insert':
      return (await planInsert(stmt, ctx)).explain(details);
    case 'statement-set':
      return (await planStatementSet(stmt.inserts, ctx)).explain(details);
    case 'explain':
      return explain(stmt.statement, ctx, [...details, ...stmt.details]);
    default:
      throw new ValidationError(`EXPLAIN does not support ${stmt.kind} statements`);
  }
}

/** The schema a view's query produces (CREATE VIEW). */
export async function inferViewSchema(query: Query, ctx: PlannerContext): Promise<ResolvedSchema> {
  const logical = await new QueryBinder(ctx).bindQuery(query);
  return schemaOf(logical.fields);
}

/**
 * The type of a computed column's expression over the table's physical and metadata columns (CREATE
 * TABLE validation). Accepts the expression as AST or SQL text.
 */
export function resolveComputedColumnType(
  expr: Expression | string,
  columns: ResolvedSchema | readonly PlanField[],
  functions?: FunctionLookup,
  timeZone = 'UTC',
): LogicalType {
  const fields: PlanField[] =
    columns instanceof ResolvedSchema ? columns.columns.filter((c) => c.kind !== 'computed').map((c) => ({ name: c.name, type: c.type })) : [...columns];
  const ast = typeof expr === 'string' ? parseExpression(expr) : expr;
  return bindExpression(ast, { scope: Scope.of(fields, null), timeZone, functions: functions ?? defaultFunctions(), positioned: typeof expr !== 'string' }).type;
}
