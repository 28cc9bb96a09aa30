import { locateError, PlanningError, ValidationError } from '../../errors/sluice-error.js';
import type { Expression } from '../../sql/ast/expressions.js';
import type { MatchRecognizeRef } from '../../sql/ast/match-recognize.js';
import type { SourcePosition } from '../../sql/position.js';
import { unparseExpression } from '../../sql/unparse/unparse-expression.js';
import { DataTypes } from '../../types/data-types.js';
import { getPrecision, isProctimeAttribute, isRowtimeAttribute, isTimeAttribute, notNull, withNullability, withoutTimeAttribute } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { MatchNode, MatchPatternElement, MatchRexExpr, MatchRexRef, MatchSkip } from '../logical/match-node.js';
import type { PlanField, SortKey } from '../logical/plan-node.js';
import { compileRex } from '../rex/compile-rex.js';
import { inputRef, isConstant } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { explainRex } from '../logical/explain-rex.js';
import { aggregateType } from './bind-aggregate.js';
import { bindExpression, checkAt, isAggregateCall } from './bind-expression.js';
import type { BoundRelation, Cte, QueryBinder } from './bind-query.js';
import { Scope } from './scope.js';
import { sqlTypeName } from '../expressions/type-rules.js';

/** An error pointing at one position of the statement (a clause keyword, a quantifier). */
function at<E extends PlanningError | ValidationError>(e: E, pos: SourcePosition): E {
  return locateError(e, { line: pos.line, column: pos.column, endLine: pos.line, endColumn: pos.column });
}

/**
 * Binds `t MATCH_RECOGNIZE (...)` to a MatchNode, checking what Flink checks (ORDER BY on an ascending time
 * attribute first, no empty-match patterns, no greedy quantifier last, ONE ROW PER MATCH only) with its
 * messages. DEFINE and MEASURES expressions are bound with every pattern reference (`A.price`,
 * `LAST(A.price, 1)`, `PREV(price)`, `SUM(A.price)`, MATCH_ROWTIME()) turned into a MatchRexRef.
 */
export async function bindMatchRecognize(binder: QueryBinder, ref: MatchRecognizeRef, ctes: ReadonlyMap<string, Cte>): Promise<BoundRelation> {
  const input = await binder.bindTableRef(ref.input, ctes);
  const mode = binder.ctx.mode;
  if (ref.rowsPerMatch?.kind === 'ALL') throw at(new PlanningError('All rows per match mode is not supported yet.'), ref.rowsPerMatch.pos);
  const pattern = bindPattern(ref);
  const variables = new Set(pattern.map((p) => p.variable));
  const inCtx = binder.exprContext(input.scope);

  const column = (e: Expression, clause: string): number => {
    const r = bindExpression(e, inCtx);
    if (r.kind !== 'input-ref') throw checkAt(e, inCtx.positioned, () => new ValidationError(`${clause} of MATCH_RECOGNIZE takes columns of its input`));
    return r.index;
  };
  const partitionKeys = ref.partitionBy.map((e) => column(e, 'PARTITION BY'));
  const orderKeys: SortKey[] = ref.orderBy.map((o) => ({ index: column(o.expr, 'ORDER BY'), descending: o.direction === 'DESC', nullsFirst: o.nulls === 'FIRST' || (o.nulls === null && o.direction !== 'DESC') }));
  let time: MatchNode['time'] = 'none';
  const first = orderKeys[0];
  if (first === undefined) {
    if (mode === 'streaming') throw at(new PlanningError('You must specify either rowtime or proctime for order by.'), ref.pos);
    throw at(new PlanningError('MATCH_RECOGNIZE needs an ORDER BY'), ref.pos);
  }
  const firstType = input.node.fields[first.index]!.type;
  if (isTimeAttribute(firstType) && mode === 'streaming') time = isRowtimeAttribute(firstType) ? 'rowtime' : 'proctime';
  if (mode === 'streaming') {
    if (!isTimeAttribute(firstType)) throw at(new PlanningError('You must specify either rowtime or proctime for order by as the first one.'), ref.orderBy[0]!.pos);
    if (first.descending) throw at(new PlanningError('Primary sort order of a streaming table must be ascending on time.'), ref.orderBy[0]!.pos);
  } else if (first.descending) throw at(new PlanningError('Primary sort order of MATCH_RECOGNIZE must be ascending.'), ref.orderBy[0]!.pos);

  const skip = bindSkip(ref, variables);
  const withinMs = ref.within === null ? null : bindWithin(binder, ref.within);
  const w = ref.within;
  const withinText = w === null || withinMs === null ? null : `${withinMs}:INTERVAL ${w.kind === 'interval-literal' ? `${w.qualifier.start}${w.qualifier.end === null ? '' : ` TO ${w.qualifier.end}`}` : 'SECOND'}`;

  const refs = new RefBinder(binder, input.scope, variables, input.node.fields[first.index]!.type);
  const defines = ref.define.map((d) => {
    if (!variables.has(d.variable.value)) throw at(new ValidationError(`Pattern variable '${d.variable.value}' in DEFINE does not appear in PATTERN`), d.variable.pos);
    const expr = refs.bind(d.condition, d.variable.value);
    if (expr.rex.type.kind !== 'BOOLEAN') throw checkAt(d.condition, inCtx.positioned, () => new ValidationError(`The DEFINE condition of '${d.variable.value}' must be BOOLEAN, not ${expr.rex.type.kind}`));
    return { variable: d.variable.value, expr };
  });
  const keyNames = partitionKeys.map((k) => input.node.fields[k]!.name);
  const clash = ref.measures.map((m) => m.alias.value).filter((n) => keyNames.includes(n));
  if (clash.length > 0) throw at(new ValidationError(`Columns ambiguously defined: {${clash.join(', ')}}`), ref.pos);
  const measures = ref.measures.map((m) => ({ name: m.alias.value, expr: refs.bind(m.expr, null) }));
  const fields: PlanField[] = [
    ...partitionKeys.map((k) => input.node.fields[k]!),
    ...measures.map((m) => ({ name: m.name, type: measureType(m.expr) })),
  ];
  const node: MatchNode = { kind: 'match', input: input.node, partitionKeys, orderKeys, time, pattern, skip, withinMs, withinText, defines, measures, fields };
  return { node, scope: Scope.of(fields, ref.alias?.value ?? null) };
}

/** A measure keeps a time attribute only when it is MATCH_ROWTIME() / MATCH_PROCTIME() itself. */
function measureType(e: MatchRexExpr): LogicalType {
  const r = e.rex;
  if (r.kind === 'input-ref') {
    const ref = e.refs[r.index]!;
    if (ref.kind === 'match-rowtime' || ref.kind === 'match-proctime') return ref.type;
  }
  return withoutTimeAttribute(r.type);
}

function bindPattern(ref: MatchRecognizeRef): MatchPatternElement[] {
  const out = ref.pattern.map((t): MatchPatternElement => {
    const q = t.quantifier;
    if (q === null) return { variable: t.variable.value, min: 1, max: 1, greedy: false, reluctant: false };
    if (q.reluctant && q.min === 0 && q.max === 1) throw at(new PlanningError('Reluctant optional variables are not supported yet.'), q.pos);
    // Flink's CEP takes `*` and `?` but no other range from 0 ({,m}, {0,m}): its job fails with this message.
    if (q.min === 0 && q.max !== null && q.max > 1) throw at(new PlanningError('The from should be a positive number greater than 0.'), q.pos);
    // Flink makes a range of rows greedy unless reluctant; `?` (at most one row) and `{n}` are not ranges there.
    return { variable: t.variable.value, min: q.min, max: q.max, greedy: !q.reluctant && (q.max === null || (q.max > q.min && q.max > 1)), reluctant: q.reluctant };
  });
  if (out.every((e) => e.min === 0)) {
    throw at(new PlanningError('Patterns that can produce empty matches are not supported. There must be at least one non-optional state.'), ref.patternPos);
  }
  const last = out[out.length - 1]!;
  if (last.greedy && last.max !== last.min) {
    throw at(
      new PlanningError('Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your pattern with either a simple variable or reluctant quantifier.'),
      ref.pattern[ref.pattern.length - 1]!.variable.pos,
    );
  }
  return out;
}

function bindSkip(ref: MatchRecognizeRef, variables: ReadonlySet<string>): MatchSkip {
  const s = ref.afterMatch;
  // Without AFTER MATCH, Flink skips to the next row (a real Flink 2.3.0 finds overlapping matches then).
  if (s === null || s.kind === 'past-last-row' || s.kind === 'to-next-row') return { kind: s?.kind ?? 'to-next-row' };
  if (!variables.has(s.variable.value)) throw at(new ValidationError(`AFTER MATCH SKIP TO names '${s.variable.value}', which is not a variable of PATTERN`), s.variable.pos);
  return { kind: s.kind, variable: s.variable.value };
}

function bindWithin(binder: QueryBinder, e: Expression): number {
  const r = bindExpression(e, binder.exprContext(new Scope([])));
  if (r.type.kind !== 'INTERVAL_DAY_TIME' || !isConstant(r)) {
    throw checkAt(e, true, () => new ValidationError('WITHIN of MATCH_RECOGNIZE takes a constant INTERVAL DAY TO SECOND, e.g. INTERVAL \'10\' SECOND'));
  }
  const ms = compileRex(r)([]) as number;
  if (!(ms > 0)) throw checkAt(e, true, () => new ValidationError('WITHIN of MATCH_RECOGNIZE must be a positive interval'));
  return ms;
}

const NAVIGATION = new Set(['FIRST', 'LAST', 'PREV']);

/**
 * Binds DEFINE / MEASURES expressions: each pattern reference becomes a MatchRexRef (deduplicated) and the
 * expression reads it as an input field. A reference's own argument is bound over one input row, with the
 * pattern variable stripped (`LAST(A.price * A.tax)` reads price * tax of A's last row).
 */
class RefBinder {
  private refs: MatchRexRef[] = [];
  private texts: string[] = [];
  private keys = new Map<string, number>();
  /** The variable whose DEFINE condition is being bound, or null for MEASURES. */
  private defining: string | null = null;

  constructor(
    private readonly binder: QueryBinder,
    private readonly scope: Scope,
    private readonly variables: ReadonlySet<string>,
    private readonly timeType: LogicalType,
  ) {}

  bind(e: Expression, defining: string | null): MatchRexExpr {
    this.defining = defining;
    this.refs = [];
    this.texts = [];
    this.keys = new Map();
    const rex = bindExpression(e, this.binder.exprContext(this.scope, (x) => this.intercept(x)));
    return { refs: this.refs, texts: this.texts, rex };
  }

  private add(ref: MatchRexRef, text: string): RexNode {
    const key = JSON.stringify([ref.kind, text]);
    let i = this.keys.get(key);
    if (i === undefined) {
      i = this.refs.length;
      this.refs.push(ref);
      this.texts.push(text);
      this.keys.set(key, i);
    }
    return inputRef(i, text, ref.type);
  }

  private intercept(e: Expression): RexNode | undefined {
    if (e.kind === 'identifier') {
      const r = this.rowExpr(e, 'reference');
      // As Calcite prints them: in DEFINE, the defined variable's own column is PREV(v.$i, 0) and another's
      // LAST(v.$i, 0); in MEASURES a column is v.name.
      const d = this.defining;
      const text = d === null ? (r.variable === null ? `LAST(${r.label}, 0)` : r.label) : r.variable === null || r.variable === d ? `PREV(${r.label.replace(/^\*\./, `${d}.`)}, 0)` : `LAST(${r.label}, 0)`;
      return this.nav(r.variable, 'last', 0, r.rex, text);
    }
    if (e.kind !== 'function-call' || e.over !== null) return undefined;
    const name = e.name[e.name.length - 1]!.toUpperCase();
    const fail = (msg: string): never => {
      throw checkAt(e, true, () => new ValidationError(msg));
    };
    if (NAVIGATION.has(name)) {
      if (e.args.length < 1 || e.args.length > 2) fail(`${name} takes one or two arguments: ${name}(variable.column [, offset])`);
      // PREV's offset defaults to 1, FIRST's and LAST's to 0.
      const offset = e.args.length === 2 ? this.offset(e.args[1]!, name) : name === 'PREV' ? 1 : 0;
      if (name === 'PREV' && this.defining === null) fail(`Cannot use PREV/NEXT in MEASURE '${unparseExpression(e)}'`);
      const { variable, rex, label } = this.rowExpr(e.args[0]!, name);
      if (name === 'PREV') {
        // Calcite turns PREV(x, n) into LAST(*.x, n), the n-th row before the current one in the match; Flink runs
        // PREV(v.x, 0) (v's current row) but refuses a physical offset within one variable's rows.
        if (variable !== null && offset > 0) throw checkAt(e, true, () => new PlanningError('Flink does not support physical offsets within partition.'));
        return this.nav(variable, 'last', offset, rex, variable === null ? `LAST(${label}, ${offset})` : `PREV(${label}, 0)`);
      }
      return this.nav(variable, name === 'FIRST' ? 'first' : 'last', offset, rex, `${name}(${label}, ${offset})`);
    }
    if (name === 'NEXT') fail('NEXT is not supported in MATCH_RECOGNIZE (as in Flink): a match is found before the rows after it are known; use PREV, FIRST or LAST');
    if (name === 'CLASSIFIER' || name === 'MATCH_NUMBER') fail(`${name}() is not supported in MATCH_RECOGNIZE (as in Flink)`);
    if (name === 'MATCH_ROWTIME') {
      if (e.args.length > 1) fail('MATCH_ROWTIME takes at most one argument: a rowtime attribute, MATCH_ROWTIME([rowtime_field])');
      const arg = e.args[0];
      if (arg === undefined) {
        // Flink: a TIMESTAMP(3) rowtime whatever the type of the ORDER BY rowtime (a TIMESTAMP_LTZ one's instant
        // then reads as its UTC wall-clock time).
        return this.add({ kind: 'match-rowtime', type: notNull(DataTypes.TIMESTAMP(3, 'ROWTIME')) }, 'MATCH_ROWTIME()');
      }
      const { variable, rex } = this.rowExpr(arg, 'MATCH_ROWTIME');
      if (!isRowtimeAttribute(rex.type)) {
        checkAt(arg, true, () => {
          throw new ValidationError(`The function MATCH_ROWTIME requires argument to be a row time attribute type, but is '${sqlTypeName(withoutTimeAttribute(rex.type))}'.`);
        });
      }
      // The same instant (the match's last row's rowtime) in the operand's type, as Flink types it.
      const column = arg.kind === 'identifier' ? arg.names.slice(variable === null ? 0 : 1).join('.') : exprText(arg);
      return this.add({ kind: 'match-rowtime', type: notNull(rex.type) }, `MATCH_ROWTIME(${variable ?? '*'}.${column})`);
    }
    if (name === 'MATCH_PROCTIME') {
      if (e.args.length > 0) fail('MATCH_PROCTIME() takes no arguments');
      return this.add({ kind: 'match-proctime', type: notNull(isProctimeAttribute(this.timeType) ? this.timeType : DataTypes.TIMESTAMP_LTZ(3, 'PROCTIME')) }, 'MATCH_PROCTIME()');
    }
    if (isAggregateCall(e, this.binder.functions)) {
      if (e.quantifier === 'DISTINCT') fail('DISTINCT aggregations are not supported in MATCH_RECOGNIZE (as in Flink)');
      if (e.filter !== null) fail('FILTER is not supported on aggregates in MATCH_RECOGNIZE');
      const star = e.args.length === 1 && e.args[0]!.kind === 'star';
      const bound = star ? [] : e.args.map((a) => this.rowExpr(a, 'aggregate'));
      const vars = new Set(bound.map((b) => b.variable));
      if (vars.size > 1) fail('Aggregation must be applied to a single pattern variable');
      const variable = bound[0]?.variable ?? null;
      const args = bound.map((b) => b.rex);
      const type = checkAt(e, true, () => aggregateType(name, args.map((a) => a.type), true, this.binder.functions, false));
      return this.add({ kind: 'agg', variable, name, args, type }, `${name}(${star ? '*' : bound.map((b) => b.label).join(', ')})`);
    }
    return undefined;
  }

  private nav(variable: string | null, from: 'first' | 'last', offset: number, value: RexNode, text: string): RexNode {
    const type = withNullability(withoutTimeAttribute(value.type), true);
    return this.add({ kind: 'nav', variable, from, offset, value, type }, text);
  }

  private offset(e: Expression, fn: string): number {
    if (e.kind !== 'numeric-literal' || !/^\d+$/.test(e.text)) throw checkAt(e, true, () => new ValidationError(`The offset of ${fn} must be a non-negative integer literal`));
    return Number(e.text);
  }

  /**
   * Binds `e` over one input row: `A.x` reads column x and names variable A; plain columns name no variable.
   * Every variable reference in `e` must be to the same variable.
   */
  private rowExpr(e: Expression, what: string): { variable: string | null; rex: RexNode; label: string; index: string } {
    const seen = new Set<string>();
    const intercept = (x: Expression): RexNode | undefined => {
      if (x.kind === 'identifier' && x.names.length >= 2 && this.variables.has(x.names[0]!)) {
        seen.add(x.names[0]!);
        return checkAt(x, true, () => this.scope.resolve(x.names.slice(1)));
      }
      if (x.kind === 'function-call' && x.over === null) {
        const n = x.name[x.name.length - 1]!.toUpperCase();
        if (NAVIGATION.has(n) || isAggregateCall(x, this.binder.functions)) {
          throw checkAt(x, true, () => new ValidationError(`${n} cannot be nested inside another pattern navigation or aggregate`));
        }
      }
      return undefined;
    };
    const rex = bindExpression(e, this.binder.exprContext(this.scope, intercept));
    if (seen.size > 1) {
      const msg = what === 'aggregate' ? 'Aggregation must be applied to a single pattern variable' : `All pattern variable references of a ${what} must use the same pattern variable`;
      throw checkAt(e, true, () => new ValidationError(msg));
    }
    const variable = seen.size === 1 ? [...seen][0]! : null;
    // `v.$2` in DEFINE (Calcite prints input fields by index there), `v.price` in MEASURES.
    const index = explainRex(rex, 'calcite', (i) => `$${i}`);
    const named = e.kind === 'identifier' ? e.names.slice(variable === null ? 0 : 1).join('.') : exprText(e);
    const body = this.defining === null ? named : index;
    let label = e.kind === 'identifier' || this.defining !== null ? `${variable ?? '*'}.${body}` : body;
    // A time attribute read from a row is a plain timestamp (Flink prints the cast).
    if (isTimeAttribute(rex.type)) label = `CAST(${label} AS ${withoutTimeAttribute(rex.type).kind === 'TIMESTAMP' ? 'TIMESTAMP' : 'TIMESTAMP_WITH_LOCAL_TIME_ZONE'}(${getPrecision(rex.type) ?? 3}))`;
    return { variable, rex, label, index };
  }
}

/** Short text of an argument for EXPLAIN and deduplication (`A.price`, `A.price * A.tax`). */
function exprText(e: Expression): string {
  return e.kind === 'identifier' ? e.names.join('.') : unparseExpression(e).replace(/`/g, '');
}
