import { locateError, PlanningError, SluiceError, SqlParseError, ValidationError } from '../../errors/sluice-error.js';
import { rangeOf } from '../../sql/position.js';
import type { CatalogTable } from '../../catalog/catalog-table.js';
import type { ObjectIdentifier } from '../../catalog/object-identifier.js';
import type { Expression } from '../../sql/ast/expressions.js';
import type { Hint, ObjectName } from '../../sql/ast/names.js';
import type { OrderByQuery, Query, SelectItem, SelectQuery, TableRef, ValuesQuery, WithItem } from '../../sql/ast/query.js';
import { parseExpression, parseStatement } from '../../sql/parse.js';
import { DataTypes } from '../../types/data-types.js';
import { withNullability } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import { commonType } from '../expressions/type-rules.js';
import type { PlanField, PlanNode, ScanNode, WatermarkAssignment } from '../logical/plan-node.js';
import type { PlannerContext } from '../planner-context.js';
import { sessionTimeZone } from '../planner-context.js';
import { compileRex } from '../rex/compile-rex.js';
import { inputRef, isConstant, rewriteInputRefs } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { bindAggregate, needsAggregate } from './bind-aggregate.js';
import { bindBinary, bindExpression, castTo } from './bind-expression.js';
import type { ExprBindContext } from './bind-expression.js';
import { Scope } from './scope.js';
import { resolveTableNamed } from './table-not-found.js';
import { withOptionsHints } from './options-hint.js';
import { createBuiltinRegistry } from '../functions/builtin-registry.js';
import type { FunctionLookup } from '../functions/function-registry.js';
import { bindWindowTvf } from './bind-window-tvf.js';
import { bindJoin, findScalarSubqueries, semiJoin, splitAnd, subqueryConjunct } from './bind-join.js';
import { correlatedScalarJoin } from './bind-correlated.js';
import { aggregateExistsAsScalars, anyCorrelatedUnderOr, decorrelateScalar } from './decorrelate.js';
import { bindOver, hasOverCalls } from './bind-over.js';
import { bindMatchRecognize } from './bind-match-recognize.js';

/** A bound FROM item: its plan and the names it exposes. */
export interface BoundRelation {
  readonly node: PlanNode;
  readonly scope: Scope;
}

export interface Cte {
  readonly item: WithItem;
  readonly outer: ReadonlyMap<string, Cte>;
}

/**
 * Turns a parsed query into a logical plan, resolving names through the session. One instance per
 * statement; async only because catalogs may be.
 */
export class QueryBinder {
  readonly timeZone: string;
  /** Nesting depth of view expansion, to stop a view that refers to itself. */
  private viewDepth = 0;

  /** Whether the binder is inside a view's stored query, whose positions are not the statement's. */
  get insideView(): boolean {
    return this.viewDepth > 0;
  }

  /** The session's functions, or the built-ins when the session gives none. */
  readonly functions: FunctionLookup;

  constructor(readonly ctx: PlannerContext) {
    this.timeZone = sessionTimeZone(ctx.config);
    this.functions = ctx.functions ?? defaultFunctions();
  }

  exprContext(scope: Scope, intercept?: ExprBindContext['intercept']): ExprBindContext {
    const positioned = this.viewDepth === 0;
    return intercept === undefined
      ? { scope, timeZone: this.timeZone, functions: this.functions, positioned }
      : { scope, timeZone: this.timeZone, functions: this.functions, intercept, positioned };
  }

  async bindQuery(q: Query, ctes: ReadonlyMap<string, Cte> = new Map()): Promise<PlanNode> {
    switch (q.kind) {
      case 'select':
        return this.bindSelect(q, ctes);
      case 'values':
        return this.bindValues(q);
      case 'with': {
        const inner = new Map(ctes);
        for (const item of q.items) inner.set(item.name.value, { item, outer: new Map(inner) });
        return this.bindQuery(q.body, inner);
      }
      case 'set-operation': {
        const left = await this.bindQuery(q.left, ctes);
        const right = await this.bindQuery(q.right, ctes);
        if (left.fields.length !== right.fields.length) {
          throw new ValidationError(`Column count mismatch in ${q.op}: ${left.fields.length} vs ${right.fields.length}`);
        }
        const types = left.fields.map((f, i) => {
          const t = commonType([f.type, right.fields[i]!.type]);
          if (t === undefined) throw new ValidationError(`Type mismatch in column ${i + 1} of UNION`);
          return t;
        });
        const fields = left.fields.map((f, i) => ({ name: f.name, type: types[i]! }));
        if (q.op !== 'UNION') {
          const keys = fields.map((_, i) => i);
          if (q.all) {
            const l = castFields(left, types);
            return { kind: 'join', joinType: q.op === 'INTERSECT' ? 'SEMI' : 'ANTI', left: l, right: castFields(right, types), leftKeys: keys, rightKeys: keys, condition: null, fields, semiNulls: 'null-equal', setOpAll: true };
          }
          const l = distinct(castFields(left, types));
          return { kind: 'join', joinType: q.op === 'INTERSECT' ? 'SEMI' : 'ANTI', left: l, right: castFields(right, types), leftKeys: keys, rightKeys: keys, condition: null, fields: l.fields, semiNulls: 'null-equal' };
        }
        const union: PlanNode = { kind: 'union', inputs: [castFields(left, types), castFields(right, types)], fields };
        return q.all ? union : distinct(union);
      }
      case 'order-by':
        return this.bindOrderBy(q, ctes);
      default: {
        const never: never = q;
        return never;
      }
    }
  }

  private async bindOrderBy(q: OrderByQuery, ctes: ReadonlyMap<string, Cte>): Promise<PlanNode> {
    try {
      return await this.bindOrderByOver(q, await this.bindQuery(q.query, ctes));
    } catch (e) {
      // ORDER BY a column that is not selected: select it as a hidden column, sort, then drop it.
      const inner = q.query;
      if (!(e instanceof ValidationError) || inner.kind !== 'select' || inner.quantifier === 'DISTINCT') throw e;
      const hidden = q.orderBy.map((o, i) => ({ expr: o.expr, alias: { value: `$order${i}`, pos: o.pos }, pos: o.pos }));
      const widened = await this.bindQuery({ ...inner, items: [...inner.items, ...hidden] }, ctes);
      const width = widened.fields.length - hidden.length;
      const orderBy = q.orderBy.map((o, i) => ({ ...o, expr: { kind: 'identifier' as const, names: [`$order${i}`], pos: o.pos } }));
      const sorted = await this.bindOrderByOver({ ...q, orderBy }, widened);
      return project(sorted, identity(sorted.fields).slice(0, width), sorted.fields.slice(0, width).map((f) => f.name));
    }
  }

  private async bindOrderByOver(q: OrderByQuery, input: PlanNode): Promise<PlanNode> {
    const scope = Scope.of(input.fields, null);
    const width = input.fields.length;
    /** ORDER BY expressions other than columns (`id * -1`), computed as hidden columns after the input's. */
    const computed: RexNode[] = [];
    const keys = q.orderBy.map((item) => {
      let index: number;
      if (item.expr.kind === 'numeric-literal') {
        index = Number(item.expr.text) - 1;
        if (index < 0 || index >= width) throw new ValidationError(`Ordinal out of range: ${item.expr.text}`);
      } else {
        const r = bindExpression(item.expr, this.exprContext(scope));
        index = r.kind === 'input-ref' ? r.index : width + computed.push(r) - 1;
      }
      if ((index < width ? input.fields[index]!.type : computed[index - width]!.type).kind === 'VARIANT') throw new ValidationError(VARIANT_NOT_ORDERABLE);
      const descending = item.direction === 'DESC';
      // Flink's default: NULLS FIRST for ASC, NULLS LAST for DESC.
      const nullsFirst = item.nulls === null ? !descending : item.nulls === 'FIRST';
      return { index, descending, nullsFirst };
    });
    const offset = q.offset === null ? 0 : this.constantInt(q.offset, 'OFFSET');
    const fetch = q.fetch === null ? null : this.constantInt(q.fetch, 'LIMIT');
    if (computed.length === 0) return { kind: 'sort', input, keys, offset, fetch, fields: input.fields };
    // Sorted on the hidden columns, which are then dropped, as Calcite plans it.
    const names = [...input.fields.map((f) => f.name), ...computed.map((_, i) => `$order${i}`)];
    const widened = project(input, [...identity(input.fields), ...computed], names);
    const sorted: PlanNode = { kind: 'sort', input: widened, keys, offset, fetch, fields: widened.fields };
    return project(sorted, identity(sorted.fields).slice(0, width), input.fields.map((f) => f.name));
  }

  private constantInt(e: Expression, what: string): number {
    const r = bindExpression(e, this.exprContext(new Scope([])));
    if (!isConstant(r)) throw new ValidationError(`${what} must be a constant`);
    const v = compileRex(r)([]);
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new ValidationError(`${what} must be a non-negative integer, but was ${String(v)}`);
    return n;
  }

  bindValues(q: ValuesQuery): PlanNode {
    const empty = this.exprContext(new Scope([]));
    const bound = q.rows.map((row) => row.map((e) => bindExpression(e, empty)));
    const width = bound[0]?.length ?? 0;
    for (const r of bound) if (r.length !== width) throw new ValidationError('Values passed to VALUES operator must have the same number of columns');
    const types: LogicalType[] = [];
    for (let i = 0; i < width; i++) {
      const t = commonType(bound.map((r) => r[i]!.type));
      if (t === undefined) throw new ValidationError(`Values in column ${i + 1} of VALUES have incompatible types`);
      // CHAR literals of different lengths widen to VARCHAR, as Flink's VALUES does.
      const lens = new Set(bound.map((r) => (r[i]!.type as { length?: number }).length));
      types.push(t.kind === 'CHAR' && lens.size > 1 ? { kind: 'VARCHAR', length: t.length, nullable: t.nullable } : t.kind === 'NULL' ? DataTypes.NULL() : t);
    }
    const rows = bound.map((r) =>
      r.map((x, i) => {
        const c = castTo(x, types[i]!);
        if (!isConstant(c)) throw new ValidationError('VALUES supports only constant expressions');
        return compileRex(c, { timeZone: this.timeZone })([]);
      }),
    );
    const fields = types.map((type, i) => ({ name: `EXPR$${i}`, type }));
    return { kind: 'values', rows, fields };
  }

  private async bindSelect(q: SelectQuery, ctes: ReadonlyMap<string, Cte>): Promise<PlanNode> {
    const from: BoundRelation =
      q.from === null
        ? { node: { kind: 'values', rows: [[]], fields: [] }, scope: new Scope([]) }
        : await this.bindTableRef(q.from, ctes);
    let node = from.node;
    const scope = from.scope;
    const items = expandStars(q.items, scope);
    const where = q.where === null ? null : await aggregateExistsAsScalars(this, q.where, ctes);
    // The FROM bound afresh, for a correlated subquery's value generator: a plan shared by two branches would share
    // its source, whose pushed-down projection and filters are the source's own.
    const outerFrom = async (): Promise<PlanNode> => (q.from === null ? from.node : (await this.bindTableRef(q.from, ctes)).node);
    // Uncorrelated scalar subqueries in the select list: LEFT JOIN the one-row result, read its column.
    const scalar = [...items.flatMap((it) => findScalarSubqueries(it.expr)), ...(where === null ? [] : findScalarSubqueries(where))];
    const scalarRefs = new Map<Expression, RexNode>();
    let selectScope = scope;
    for (const sq of scalar) {
      let right: PlanNode;
      try {
        right = await this.bindQuery(sq.query, ctes);
      } catch (e) {
        // An unknown column may be a reference to the outer query: try it as a correlated scalar subquery.
        if (!(e instanceof ValidationError)) throw e;
        const corr = await decorrelateScalar(this, sq.query, scope, ctes);
        if (corr === undefined) throw e;
        const joined = await correlatedScalarJoin(this, node, scope, corr, ctes, outerFrom);
        node = joined.node;
        scalarRefs.set(sq, joined.value);
        selectScope = new Scope([...selectScope.columns, { qualifier: null, name: `$scalar${scalarRefs.size}`, type: joined.value.type }]);
        continue;
      }
      if (right.fields.length !== 1) throw new ValidationError('A scalar subquery must return exactly one column');
      const width = node.fields.length;
      const f = right.fields[0]!;
      const type = withNullability(f.type, true);
      node = { kind: 'join', joinType: 'LEFT', left: node, right, leftKeys: [], rightKeys: [], condition: null, fields: [...node.fields, { name: `$scalar${scalarRefs.size}`, type }] };
      scalarRefs.set(sq, inputRef(width, f.name, type));
      selectScope = new Scope([...selectScope.columns, { qualifier: null, name: `$scalar${scalarRefs.size}`, type }]);
    }
    const scalarIntercept = scalarRefs.size === 0 ? undefined : (e: Expression): RexNode | undefined => scalarRefs.get(e);
    if (where !== null) {
      // IN / EXISTS subqueries among the top-level conjuncts become semi / anti joins.
      const conjuncts = splitAnd(where);
      const subs = conjuncts.flatMap((c) => subqueryConjunct(c) ?? []);
      const nullRejecting = subs.length > 1 && (await anyCorrelatedUnderOr(this, subs.map((s) => s.query), scope, ctes));
      const plain: Expression[] = [];
      for (const c of conjuncts) {
        const sub = subqueryConjunct(c);
        if (sub === undefined) plain.push(c);
        else node = await semiJoin(this, node, scope, sub, ctes, outerFrom, nullRejecting);
      }
      if (plain.length > 0) {
        const cond = plain.map((c) => bindExpression(c, this.exprContext(selectScope, scalarIntercept))).reduce((a, b) => bindBinary('AND', a, b));
        requireBoolean(cond, 'WHERE');
        node = { kind: 'calc', input: node, projects: identity(node.fields), condition: cond, fields: node.fields };
      }
    }
    let result: PlanNode;
    if (needsAggregate(q, this.functions)) {
      result = bindAggregate(this, q, items, node, scope);
    } else {
      if (q.having !== null) throw new ValidationError('HAVING clause requires GROUP BY or an aggregate function');
      let ctx = this.exprContext(selectScope, scalarIntercept);
      if (hasOverCalls(items)) {
        const over = bindOver(items, q.windows, node, scope, ctx, this.ctx.mode);
        node = over.node;
        ctx = this.exprContext(over.scope, over.intercept);
      }
      const exprs = items.map((it) => bindExpression(it.expr, ctx));
      result = project(node, exprs, items.map((it, i) => itemName(it, i)));
    }
    return q.quantifier === 'DISTINCT' ? distinct(result) : result;
  }




  async bindTableRef(ref: TableRef, ctes: ReadonlyMap<string, Cte>): Promise<BoundRelation> {
    switch (ref.kind) {
      case 'table': {
        const parts = ref.name.parts;
        const alias = ref.alias?.value ?? parts[parts.length - 1]!;
        const cte = parts.length === 1 ? ctes.get(parts[0]!) : undefined;
        let node: PlanNode;
        if (cte !== undefined) {
          node = renameFields(await this.bindQuery(cte.item.query, cte.outer), cte.item.columns.map((c) => c.value));
        } else {
          node = await this.bindCatalogTable(ref.name, ctes.keys(), ref.hints);
        }
        node = renameFields(node, ref.columnAliases.map((c) => c.value));
        return { node, scope: Scope.of(node.fields, alias) };
      }
      case 'derived-table': {
        if (ref.lateral) throw new PlanningError('LATERAL subqueries are not supported yet');
        const node = renameFields(await this.bindQuery(ref.query, ctes), ref.columnAliases.map((c) => c.value));
        return { node, scope: Scope.of(node.fields, ref.alias?.value ?? null) };
      }
      case 'join':
        return bindJoin(this, ref, ctes);
      case 'table-function': {
        const node = await bindWindowTvf(this, ref, ctes);
        const aliased = renameFields(node, ref.columnAliases.map((c) => c.value));
        return { node: aliased, scope: Scope.of(aliased.fields, ref.alias?.value ?? null) };
      }
      case 'match-recognize':
        return bindMatchRecognize(this, ref, ctes);
      case 'unnest':
        throw new PlanningError(`${ref.kind} is not supported yet`);
      default: {
        const never: never = ref;
        return never;
      }
    }
  }


  private async bindCatalogTable(name: ObjectName, cteNames: Iterable<string>, hints: readonly Hint[] = []): Promise<PlanNode> {
    const parts = name.parts;
    const resolved = await resolveTableNamed(this.ctx, name, { positioned: this.viewDepth === 0, alsoKnown: cteNames });
    const { identifier, isTemporary } = resolved;
    const table = withOptionsHints(resolved.table, hints, this.ctx.config, parts.join('.'));
    if (table.kind === 'view') {
      if (++this.viewDepth > 32) throw new ValidationError(`View '${parts.join('.')}' refers to itself`);
      try {
        const stmt = parseViewQuery(table.expandedQuery || table.originalQuery, parts.join('.'));
        if (stmt.kind !== 'query') throw new ValidationError(`View '${parts.join('.')}' does not hold a query`);
        const bound = await this.bindQuery(stmt.query);
        // `CREATE VIEW v (a, b) AS ...` names the columns; the stored query keeps its own names.
        const names = table.schema.columns.map((c) => c.name);
        return names.length === bound.fields.length && names.some((n, i) => n !== bound.fields[i]!.name) ? renameFields(bound, names) : bound;
      } catch (e) {
        // Positions inside a view's stored query are not the statement's: an error there (a column its
        // table no longer has, a function since dropped) names the view and points at where it is used.
        if (this.viewDepth === 1 && e instanceof SluiceError && e.range === undefined) {
          e.message = `In view '${identifier.catalog}.${identifier.database}.${identifier.object}': ${e.message}`;
          locateError(e, rangeOf(name));
        }
        throw e;
      } finally {
        this.viewDepth--;
      }
    }
    if (this.viewDepth > 0) return this.bindScan(identifier, table, isTemporary);
    // A table's options are checked when it is used, as in Flink: a bad one is reported at this use.
    try {
      return this.bindScan(identifier, table, isTemporary);
    } catch (e) {
      if (e instanceof ValidationError) locateError(e, rangeOf(name));
      throw e;
    }
  }

  /** A scan of all physical and metadata columns, then a calc adding computed columns in schema order. */
  bindScan(identifier: ObjectIdentifier, table: CatalogTable, isTemporary: boolean): PlanNode {
    const source = this.ctx.createSource(identifier, table, isTemporary);
    if (source.kind !== 'scan-source') {
      throw new PlanningError(`Table '${identifier.catalog}.${identifier.database}.${identifier.object}' can only be used in a lookup join`);
    }
    const schema = table.schema;
    const physical = schema.columns.filter((c) => c.kind === 'physical');
    const metadata = schema.columns.filter((c) => c.kind === 'metadata');
    const scanFields: PlanField[] = [...physical, ...metadata].map((c) => ({ name: c.name, type: c.type }));
    const metadataKeys = metadata.map((c) => (c.kind === 'metadata' ? (c.metadataKey ?? c.name) : c.name));
    const scanScope = Scope.of(scanFields, null);
    // Columns in schema order over the scan's output: refs for stored columns, expressions for computed ones.
    const columnExprs: RexNode[] = schema.columns.map((c) => {
      if (c.kind === 'computed') {
        const e = bindExpression(parseExpression(c.expression), { ...this.exprContext(scanScope), positioned: false });
        // The rowtime column's type only adds the time attribute: no CAST (Flink's plan shows none either).
        const plain = (t: LogicalType): string => JSON.stringify({ ...t, nullable: true, timeAttribute: undefined });
        return plain(e.type) === plain(c.type) ? e : castTo(e, c.type);
      }
      const i = scanFields.findIndex((f) => f.name === c.name);
      return inputRef(i, c.name, c.type);
    });
    const fields = schema.columns.map((c) => ({ name: c.name, type: c.type }));
    let watermark: WatermarkAssignment | null = null;
    const spec = schema.watermarkSpecs[0];
    if (spec !== undefined) {
      const rowtimeIdx = schema.findColumnIndex(spec.rowtimeAttribute);
      const tableScope = Scope.of(fields, null);
      const wm = bindExpression(parseExpression(spec.expression), { ...this.exprContext(tableScope), positioned: false });
      const inlined = rewriteInputRefs(wm, (r) => columnExprs[r.index]!);
      const rowtime = columnExprs[rowtimeIdx]!;
      const delay = boundedDelay(wm, rowtimeIdx);
      watermark =
        delay !== undefined
          ? { kind: 'bounded', rowtime, delayMs: delay, text: spec.expression, declared: wm, rowtimeIndex: rowtimeIdx }
          : { kind: 'expression', rowtime, expr: inlined, text: spec.expression, declared: wm, rowtimeIndex: rowtimeIdx };
    }
    const scan: ScanNode = { kind: 'scan', identifier, table, source, physicalIndexes: null, metadataKeys, watermark, fields: scanFields, ...(watermark === null ? {} : { columnExprs }) };
    const trivial = columnExprs.every((e, i) => e.kind === 'input-ref' && e.index === i) && columnExprs.length === scanFields.length;
    return trivial ? scan : { kind: 'calc', input: scan, projects: columnExprs, condition: null, fields };
  }
}

let builtins: FunctionLookup | undefined;

/** The built-in registry, created once per process. */
export function defaultFunctions(): FunctionLookup {
  builtins ??= createBuiltinRegistry();
  return builtins;
}

/** `ts - INTERVAL ...` (or `ts` alone) over the rowtime column: the delay in ms; else undefined. */
function boundedDelay(wm: RexNode, rowtimeIdx: number): number | undefined {
  if (wm.kind === 'input-ref' && wm.index === rowtimeIdx) return 0;
  if (wm.kind === 'call' && wm.op === '-') {
    const [a, b] = wm.operands;
    if (a?.kind === 'input-ref' && a.index === rowtimeIdx && b?.kind === 'literal' && typeof b.value === 'number') return b.value;
  }
  return undefined;
}

export function requireBoolean(n: RexNode, clause: string): void {
  if (n.type.kind !== 'BOOLEAN' && n.type.kind !== 'NULL') {
    throw new ValidationError(`${clause} clause must be a condition, but is of type ${n.type.kind}`);
  }
}

export function identity(fields: readonly PlanField[]): RexNode[] {
  return fields.map((f, i) => inputRef(i, f.name, f.type));
}

/** A calc computing `exprs` named `names` over `input`, with duplicate names made unique as Calcite does. */
export function project(input: PlanNode, exprs: readonly RexNode[], names: readonly string[]): PlanNode {
  const used = new Set<string>();
  const fields = exprs.map((e, i) => {
    let name = names[i]!;
    for (let k = 0; used.has(name); k++) name = `${names[i]}${k}`;
    used.add(name);
    return { name, type: e.type };
  });
  return { kind: 'calc', input, projects: exprs, condition: null, fields };
}

export function itemName(item: SelectItem, i: number): string {
  if (item.alias !== null) return item.alias.value;
  if (item.expr.kind === 'identifier') {
    const n = item.expr.names[item.expr.names.length - 1]!;
    // Internal columns ($window_start of a legacy group window) are named as Flink names expressions.
    if (!n.startsWith('$')) return n;
  }
  if (item.expr.kind === 'field-access') return item.expr.field;
  return `EXPR$${i}`;
}

/** Replaces `*` and `t.*` with one identifier item per column. */
function expandStars(items: readonly SelectItem[], scope: Scope): SelectItem[] {
  const out: SelectItem[] = [];
  for (const it of items) {
    if (it.expr.kind !== 'star') {
      out.push(it);
      continue;
    }
    const q = it.expr.qualifier;
    let idx: number[];
    if (q.length === 0) idx = scope.columns.map((_, i) => i);
    else {
      const found = scope.columnsOf(q[q.length - 1]!);
      if (found === undefined) throw new ValidationError(`Unknown identifier '${q.join('.')}'`);
      idx = found;
    }
    for (const i of idx) {
      const c = scope.columns[i]!;
      const names = c.qualifier === null ? [c.name] : [c.qualifier, c.name];
      out.push({ expr: { kind: 'identifier', names, pos: it.pos }, alias: null, pos: it.pos });
    }
  }
  return out;
}

function renameFields(node: PlanNode, names: readonly string[]): PlanNode {
  if (names.length === 0) return node;
  if (names.length !== node.fields.length) {
    throw new ValidationError(`List of column aliases must have same degree as table; table has ${node.fields.length} columns, whereas alias list has ${names.length} columns`);
  }
  return project(node, identity(node.fields), names);
}

function castFields(node: PlanNode, types: readonly LogicalType[]): PlanNode {
  if (node.fields.every((f, i) => JSON.stringify(f.type) === JSON.stringify(types[i]))) return node;
  return project(node, identity(node.fields).map((r, i) => castTo(r, types[i]!)), node.fields.map((f) => f.name));
}

/** As a real Flink 2.3 refuses a VARIANT as a sort, grouping, DISTINCT or join key. */
export const VARIANT_NOT_ORDERABLE = 'Type(VARIANT) is not an orderable data type, it is not supported as a ORDER_BY/GROUP_BY/JOIN_EQUAL field.';

/** SELECT DISTINCT / UNION: a group-by over every column without aggregates. */
export function distinct(node: PlanNode): PlanNode {
  if (node.fields.some((f) => f.type.kind === 'VARIANT')) throw new ValidationError(VARIANT_NOT_ORDERABLE);
  return { kind: 'aggregate', input: node, groupKeys: node.fields.map((_, i) => i), aggCalls: [], fields: node.fields };
}

/** A view's stored query; one that no longer parses (a catalog file edited by hand) is the view's error, not the statement's. */
function parseViewQuery(sql: string, view: string): ReturnType<typeof parseStatement> {
  try {
    return parseStatement(sql);
  } catch (e) {
    if (e instanceof SqlParseError) throw new ValidationError(`The stored query of view '${view}' does not parse: ${e.message}`, { cause: e });
    throw e;
  }
}
