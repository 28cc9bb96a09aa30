import type { AggregateNode, PlanNode, RankNode, ScanNode } from '../logical/plan-node.js';
import { windowFieldsOf } from '../logical/window-properties.js';
import { inputsOf, withInputs } from '../logical/plan-node.js';
import { call, collectInputRefs, inputRef, literal, rewriteInputRefs } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { foldConstants } from './constant-folding.js';
import { simplifyReflexiveComparisons } from './reflexive-comparison.js';
import { andOf, conjunctsOf, deterministic } from './conjuncts.js';
import { pushPredicatesIntoScan } from './push-into-scan.js';
import { mergeCalcs } from './calc-merge.js';
import { pruneJoinInputs } from './prune-join-inputs.js';
import { pruneRankInput } from './prune-rank-input.js';
import { needsPrimaryKey } from './changelog-normalize.js';
import { provablyEmpty, reduceGlobalAggregateOfEmpty } from './empty-input.js';
import { splitWindowAggregate } from './two-phase-window.js';
import type { TwoPhaseWindowOptions } from './two-phase-window.js';

export { mergeCalcs };
import { DataTypes } from '../../types/data-types.js';
import { withNullability } from '../../types/logical-type.js';

/** Options of the rule pass. */
export interface OptimizeOptions {
  readonly timeZone: string;
  /** `table.exec.source.cdc-events-duplicate`: CDC scans keep their primary key for a ChangelogNormalize. */
  readonly cdcEventsDuplicate?: boolean;
  /**
   * Streaming plans window Top-Ns and window aggregates over a window aggregate's (or window Top-N's) rows per
   * window (window-properties.ts); batch plans them as plain ranks and aggregates, as Flink's batch planner does.
   */
  readonly mode?: 'streaming' | 'batch';
  /** When given, window aggregates are split into local and global phases as Flink does (two-phase-window.ts). */
  readonly twoPhaseWindow?: TwoPhaseWindowOptions;
}

/**
 * Two bottom-up passes. The first rewrites the plan: constant folding, merging adjacent calcs, filters
 * into joins, window aggregates (split in two phases where Flink splits them), Top-N, dropping identity calcs. The second, once every filter sits
 * merged directly above its scan (and join inputs are pruned to the columns read), calls the source abilities in Flink's order: partitions, filters,
 * projection, limit (then metadata in finalizeScans). Abilities are called once per query: the caller
 * must optimize a plan exactly once.
 */
export function optimize(root: PlanNode, options: OptimizeOptions): PlanNode {
  const rewrite = (n: PlanNode): PlanNode => {
    const inputs = inputsOf(n).map(rewrite);
    let node = inputs.length === 0 ? n : withInputs(n, inputs);
    node = foldCalc(node, options.timeZone);
    node = pruneEmptySemiJoin(node);
    node = mergeCalcs(node);
    node = reduceGlobalAggregateOfEmpty(node);
    node = pushFilterIntoJoin(node, rewrite);
    node = pruneJoinInputs(node, rewrite);
    node = wrapJsonAggregateValues(node);
    node = detectWindowAggregate(node, options.mode === 'streaming');
    if (options.twoPhaseWindow !== undefined) node = splitWindowAggregate(node, options.twoPhaseWindow);
    node = detectTopN(node);
    node = pruneRankInput(node, rewrite);
    if (options.mode === 'streaming') node = detectWindowRank(node);
    node = removeIdentityCalc(node);
    node = pruneUnreadRankNumbers(node);
    return node;
  };
  const pushIntoScans = (n: PlanNode): PlanNode => {
    const inputs = inputsOf(n).map(pushIntoScans);
    let node = inputs.length === 0 ? n : withInputs(n, inputs);
    node = pushPredicatesIntoScan(node, options.timeZone);
    node = pushProjectionIntoScan(node, options);
    node = removeIdentityCalc(node);
    node = pushLimitIntoScan(node);
    return node;
  };
  return finalizeScans(pushIntoScans(pruneRankNumberAtRoot(rewrite(root))));
}

/**
 * A semi / anti join (INTERSECT, EXCEPT, IN) with an input that provably has no rows, as Flink's PruneEmptyRules
 * plan it: over an empty left input it is that input, its right input never read, so an INTERSECT whose first
 * branch's WHERE is FALSE answers no rows even when the second branch would fail (a CAST of a NaN to DECIMAL); the
 * same holds the other way round for an INTERSECT whose second branch is empty.
 */
function pruneEmptySemiJoin(n: PlanNode): PlanNode {
  if (n.kind !== 'join' || (n.joinType !== 'SEMI' && n.joinType !== 'ANTI') || n.left.fields.length !== n.fields.length) return n;
  if (provablyEmpty(n.left)) return n.left;
  if (!provablyEmpty(n.right)) return n;
  // Nothing to match: a semi join (INTERSECT, IN) has no rows, its left input never read; an anti join (EXCEPT,
  // NOT IN, NOT EXISTS) passes every left row.
  return n.joinType === 'SEMI' ? { kind: 'values', rows: [], fields: n.fields } : n.left;
}

function foldCalc(n: PlanNode, tz: string): PlanNode {
  if (n.kind === 'join' && n.condition !== null) {
    // A join's ON condition simplifies as a filter does: Calcite's RexSimplify runs on it in every Flink plan, so
    // `ON a.k = b.k AND a.y >= a.y` keeps the rows whose y is NaN there.
    const condition = foldConstants(simplifyReflexiveComparisons(n.condition, true), tz);
    return condition === n.condition ? n : { ...n, condition: condition.kind === 'literal' && condition.value === true ? null : condition };
  }
  if (n.kind !== 'calc') return n;
  const simplify = (r: RexNode): RexNode => foldConstants(simplifyReflexiveComparisons(r), tz);
  let condition = n.condition === null ? null : foldConstants(simplifyReflexiveComparisons(n.condition, true), tz);
  if (condition !== null && condition.kind === 'literal' && condition.value === true) condition = null;
  return { ...n, projects: n.projects.map(simplify), condition };
}

/**
 * A filter over a join moves into it: conjuncts over one side's columns filter that input (both sides
 * for INNER, the preserved side of LEFT / RIGHT), conjuncts over both sides of an INNER join join the ON
 * condition, where equalities of same-typed columns become equi keys. So `FROM a, b WHERE a.id = b.id`
 * is a hash join, not a filtered cross product. `optimizeChild` re-runs the rules on a changed input.
 */
function pushFilterIntoJoin(n: PlanNode, optimizeChild: (c: PlanNode) => PlanNode): PlanNode {
  if (n.kind !== 'calc' || n.condition === null || n.input.kind !== 'join') return n;
  const join = n.input;
  const jt = join.joinType;
  if (jt === 'FULL' || jt === 'SEMI' || jt === 'ANTI' || join.temporal !== undefined || join.setOpAll === true) return n;
  const nl = join.left.fields.length;
  const toLeft: RexNode[] = [];
  const toRight: RexNode[] = [];
  const toJoin: RexNode[] = [];
  const keep: RexNode[] = [];
  for (const c of conjunctsOf(n.condition)) {
    const refs = [...collectInputRefs(c)];
    if (!deterministic(c) || refs.length === 0) keep.push(c);
    else if (refs.every((i) => i < nl) && jt !== 'RIGHT') toLeft.push(c);
    else if (refs.every((i) => i >= nl) && jt !== 'LEFT') toRight.push(rewriteInputRefs(c, (r) => inputRef(r.index - nl, r.name, r.type)));
    else if (jt === 'INNER') toJoin.push(c);
    else keep.push(c);
  }
  if (toLeft.length + toRight.length + toJoin.length === 0) return n;
  const filter = (input: PlanNode, conds: RexNode[]): PlanNode =>
    conds.length === 0
      ? input
      : optimizeChild({ kind: 'calc', input, projects: input.fields.map((f, i) => inputRef(i, f.name, f.type)), condition: andOf(conds), fields: input.fields });
  const leftKeys = [...join.leftKeys];
  const rightKeys = [...join.rightKeys];
  const rest: RexNode[] = join.condition === null ? [] : conjunctsOf(join.condition);
  for (const c of toJoin) {
    if (c.kind === 'call' && c.op === '=' && c.operands.length === 2) {
      let [a, b] = c.operands as [RexNode, RexNode];
      if (a.kind === 'input-ref' && b.kind === 'input-ref' && a.index >= nl && b.index < nl) [a, b] = [b, a];
      if (a.kind === 'input-ref' && b.kind === 'input-ref' && a.index < nl && b.index >= nl && JSON.stringify(withoutNull(a.type)) === JSON.stringify(withoutNull(b.type))) {
        leftKeys.push(a.index);
        rightKeys.push(b.index - nl);
        continue;
      }
    }
    rest.push(c);
  }
  const newJoin: PlanNode = {
    ...join,
    left: filter(join.left, toLeft),
    right: filter(join.right, toRight),
    leftKeys,
    rightKeys,
    condition: rest.length === 0 ? null : andOf(rest),
  };
  return { ...n, input: newJoin, condition: keep.length === 0 ? null : andOf(keep) };
}

/** A type with its nullability and time attribute dropped, for comparing key types. */
function withoutNull(t: RexNode['type']): unknown {
  const { nullable: _n, ...rest } = t as { nullable: boolean; timeAttribute?: string };
  delete (rest as { timeAttribute?: string }).timeAttribute;
  return rest;
}

/** The value operand of each JSON aggregate (JSON_OBJECTAGG's second, JSON_ARRAYAGG's only one). */
const JSON_AGGREGATE_VALUE: Readonly<Record<string, number>> = {
  JSON_OBJECTAGG_NULL_ON_NULL: 1,
  JSON_OBJECTAGG_ABSENT_ON_NULL: 1,
  JSON_ARRAYAGG_ABSENT_ON_NULL: 0,
  JSON_ARRAYAGG_NULL_ON_NULL: 0,
};

/**
 * A JSON aggregate reads JSON_STRING(value), appended to its input's projection, as Flink's
 * WrapJsonAggFunctionArgumentsRule plans it (the AST keeps the value; the optimized plan reads `JSON_STRING(v) AS $f3`):
 * the aggregate then embeds that text as it is, so a JSON_OBJECT / JSON_ARRAY value is embedded as JSON and a TIMESTAMP
 * is ISO text (json-aggregates.ts). The appended projection merges into the binder's pre-projection, so JSON_STRING
 * sees the JSON_OBJECT call itself.
 */
function wrapJsonAggregateValues(n: PlanNode): PlanNode {
  if (n.kind !== 'aggregate' || !n.aggCalls.some((c) => JSON_AGGREGATE_VALUE[c.name] !== undefined)) return n;
  const width = n.input.fields.length;
  const added: RexNode[] = [];
  const addedFor = new Map<number, number>();
  const aggCalls = n.aggCalls.map((c) => {
    const at = JSON_AGGREGATE_VALUE[c.name];
    const arg = at === undefined ? undefined : c.args[at];
    if (at === undefined || arg === undefined) return c;
    let index = addedFor.get(arg);
    if (index === undefined) {
      const f = n.input.fields[arg]!;
      index = width + added.push(call('JSON_STRING', [inputRef(arg, f.name, f.type)], withNullability(DataTypes.STRING(), f.type.nullable))) - 1;
      addedFor.set(arg, index);
    }
    return { ...c, args: c.args.map((a, i) => (i === at ? index : a)) };
  });
  const projects = [...n.input.fields.map((f, i) => inputRef(i, f.name, f.type)), ...added];
  const names = new Set(n.input.fields.map((f) => f.name));
  const fields = [...n.input.fields, ...added.map((r, k) => {
    let name = `$f${width + k}`;
    while (names.has(name)) name = `${name}_`;
    names.add(name);
    return { name, type: r.type };
  })];
  const input = mergeCalcs({ kind: 'calc', input: n.input, projects, condition: null, fields });
  return { ...n, input, aggCalls };
}

function removeIdentityCalc(n: PlanNode): PlanNode {
  if (n.kind !== 'calc' || n.condition !== null) return n;
  const same =
    n.projects.length === n.input.fields.length &&
    n.projects.every((p, i) => p.kind === 'input-ref' && p.index === i && n.input.fields[i]!.name === n.fields[i]!.name);
  return same ? n.input : n;
}

/**
 * aggregate(calc(window-tvf)) grouping by the TVF's window_start and window_end becomes a window
 * aggregate (final rows per window, fired by watermark) instead of an updating group aggregate, with or
 * without a WHERE between them, as Flink plans it (a filter keeps the window properties of its input).
 */
function detectWindowAggregate(n: PlanNode, streaming: boolean): PlanNode {
  if (n.kind !== 'aggregate' || n.window !== undefined) return n;
  const calc = n.input.kind === 'calc' ? n.input : null;
  const tvf = calc === null ? n.input : calc.input;
  if (tvf.kind !== 'window-tvf') return streaming ? detectCascadedWindowAggregate(n) : n;
  const base = tvf.input.fields.length;
  const source = (k: number): number | undefined => {
    if (calc === null) return k;
    const p = calc.projects[k];
    return p?.kind === 'input-ref' ? p.index : undefined;
  };
  const startKey = n.groupKeys.find((k) => source(k) === base);
  const endKey = n.groupKeys.find((k) => source(k) === base + 1);
  if (startKey === undefined || endKey === undefined) return n;
  return { ...n, window: { windowStartField: startKey, windowEndField: endKey, spec: tvf.window, timeField: tvf.input.fields[tvf.timeIndex]!.name } };
}

/**
 * A GROUP BY window_start, window_end over the rows of a window aggregate or window Top-N (through calcs that keep
 * both columns) is a window aggregate over that window (Flink's cascaded window aggregate, insert-only, fired by
 * the watermark), not an updating group aggregate. Its window is read from the two columns (`timeField` null).
 */
function detectCascadedWindowAggregate(n: AggregateNode): PlanNode {
  const w = windowFieldsOf(n.input);
  if (w === undefined || w.proctime === true || !n.groupKeys.includes(w.startField) || !n.groupKeys.includes(w.endField)) return n;
  return { ...n, window: { windowStartField: w.startField, windowEndField: w.endField, spec: w.spec, timeField: null } };
}

/**
 * A ROW_NUMBER Top-N partitioned by window_start and window_end of the window its input carries (a window TVF's,
 * a window aggregate's) is a window Top-N or window deduplication (Flink's WindowRank / WindowDeduplicate): the
 * rank records the window, and is then insert-only and fired per window. RANK and DENSE_RANK are marked too, for
 * the changelog inference to refuse them as Flink does. Looks at a rank or at the calc over one.
 */
function detectWindowRank(n: PlanNode): PlanNode {
  if (n.kind === 'calc' && n.input.kind === 'rank') {
    const rank = windowRankOf(n.input);
    return rank === n.input ? n : { ...n, input: rank };
  }
  return n.kind === 'rank' ? windowRankOf(n) : n;
}

function windowRankOf(rank: RankNode): RankNode {
  if (rank.window !== undefined || rank.limit === null || rank.sortLimit !== undefined) return rank;
  const w = windowFieldsOf(rank.input);
  if (w === undefined || !rank.partitionKeys.includes(w.startField) || !rank.partitionKeys.includes(w.endField)) return rank;
  return { ...rank, window: w };
}

/**
 * calc(rank) whose condition bounds the rank column (`rn <= N`, `rn < N`, `rn = N`) becomes a Top-N:
 * the bound moves into the rank node; if the calc does not read the rank column, it is not produced.
 */
function detectTopN(n: PlanNode): PlanNode {
  const topN = findTopN(n);
  return topN.kind === 'calc' && topN.input.kind === 'rank' ? removeConstantRankNumber(topN, topN.input) : topN;
}

function findTopN(n: PlanNode): PlanNode {
  if (n.kind !== 'calc' || n.input.kind !== 'rank' || n.input.limit !== null || n.condition === null) return n;
  const rank = n.input;
  const rnIndex = rank.input.fields.length;
  const conjuncts = n.condition.kind === 'call' && n.condition.op === 'AND' ? [...n.condition.operands] : [n.condition];
  let limit: number | null = null;
  const rest = conjuncts.filter((c) => {
    if (limit !== null || c.kind !== 'call' || c.operands.length !== 2) return true;
    const [a, b] = c.operands;
    if (a?.kind !== 'input-ref' || a.index !== rnIndex || b?.kind !== 'literal' || typeof b.value !== 'number') return true;
    if (c.op === '<=') limit = b.value;
    else if (c.op === '<') limit = b.value - 1;
    else if (c.op === '=' && b.value === 1) limit = 1;
    else if (c.op === '=' && b.value > 1 && Number.isInteger(b.value)) {
      // `rn = N`: the Top-N keeps ranks 1..N and the filter keeps rank N (Flink's rankRange=[rankStart=N, rankEnd=N]).
      limit = b.value;
      return true;
    }
    return limit === null;
  });
  if (limit === null) return n;
  const condition = rest.length === 0 ? null : rest.length === 1 ? rest[0]! : call('AND', rest, DataTypes.BOOLEAN());
  const used = new Set<number>();
  for (const p of n.projects) collectInputRefs(p, used);
  if (condition !== null) collectInputRefs(condition, used);
  const outputRankNumber = used.has(rnIndex);
  const newRank: PlanNode = { ...rank, limit, outputRankNumber, fields: outputRankNumber ? rank.fields : rank.fields.slice(0, rnIndex) };
  return { ...n, input: newRank, condition };
}

/**
 * ROW_NUMBER() bounded to exactly 1 (`rn = 1`, `rn <= 1`, `rn < 2`) is the literal 1 in every row it emits: the
 * rank stops producing the column and the calc projects the literal (Flink's RankNumberColumnRemoveRule), so a
 * first or last row per key on a time attribute is planned as a Deduplicate even when `rn` is selected.
 */
function removeConstantRankNumber(n: PlanNode & { kind: 'calc' }, rank: PlanNode & { kind: 'rank' }): PlanNode {
  if (!rank.outputRankNumber || rank.limit !== 1 || (rank.rankType ?? 'ROW_NUMBER') !== 'ROW_NUMBER') return n;
  const rnIndex = rank.input.fields.length;
  const one = literal(1n, rank.fields[rnIndex]!.type);
  const replace = (r: RexNode): RexNode => rewriteInputRefs(r, (ref) => (ref.index === rnIndex ? one : ref));
  return {
    ...n,
    input: { ...rank, outputRankNumber: false, fields: rank.fields.slice(0, rnIndex) },
    projects: n.projects.map(replace),
    condition: n.condition === null ? null : replace(n.condition),
  };
}

/**
 * A Top-N whose consumer, a calc, no longer reads the rank column stops producing it (Flink's no-rank-number Top-N:
 * Flink decides it where it makes the Top-N, from the calc above it, which by then holds the projections over it).
 * Not when that calc feeds an OVER or another Top-N: Flink's window keeps all the columns of its input, so its
 * Top-N keeps the number (CalcRankTransposeRule does not drop it either), and an update-fast Top-N above then sees
 * a row again when only its number changed. Applied by the consumer of the calc, which knows what it is.
 */
function pruneUnreadRankNumbers(n: PlanNode): PlanNode {
  if (n.kind === 'rank' || n.kind === 'over') return n;
  const inputs = inputsOf(n);
  const pruned = inputs.map(pruneRankNumberAtRoot);
  return pruned.every((p, i) => p === inputs[i]) ? n : withInputs(n, pruned);
}

/** The plan's top node itself, when it is a calc over a Top-N (see pruneUnreadRankNumbers). */
function pruneRankNumberAtRoot(n: PlanNode): PlanNode {
  if (n.kind !== 'calc' || n.input.kind !== 'rank' || n.input.limit === null || !n.input.outputRankNumber) return n;
  const pruned = pruneRankNumber(n, n.input);
  return pruned === n ? n : removeIdentityCalc(pruned);
}

function pruneRankNumber(n: PlanNode & { kind: 'calc' }, rank: PlanNode & { kind: 'rank' }): PlanNode {
  const rnIndex = rank.input.fields.length;
  const used = new Set<number>();
  for (const p of n.projects) collectInputRefs(p, used);
  if (n.condition !== null) collectInputRefs(n.condition, used);
  if (used.has(rnIndex)) return n;
  return { ...n, input: { ...rank, outputRankNumber: false, fields: rank.fields.slice(0, rnIndex) } };
}

/** calc(scan) where the calc reads a subset of the physical columns: ask the source to produce only those. */
function pushProjectionIntoScan(n: PlanNode, options: OptimizeOptions): PlanNode {
  if (n.kind !== 'calc' || n.input.kind !== 'scan' || n.input.physicalIndexes !== null) return n;
  const scan = n.input;
  const used = new Set<number>();
  // A source read through a ChangelogNormalize keeps its primary key (Flink's PushProjectIntoTableSourceScanRule).
  if (needsPrimaryKey(scan.table, scan.source, { cdcEventsDuplicate: options.cdcEventsDuplicate === true })) {
    const physical = scan.table.schema.columns.filter((c) => c.kind === 'physical').map((c) => c.name);
    for (const c of scan.table.schema.primaryKey?.columns ?? []) used.add(physical.indexOf(c));
  }
  for (const p of n.projects) collectInputRefs(p, used);
  if (n.condition !== null) collectInputRefs(n.condition, used);
  if (scan.watermark !== null) {
    collectInputRefs(scan.watermark.rowtime, used);
    if (scan.watermark.kind === 'expression') collectInputRefs(scan.watermark.expr, used);
  }
  const physicalCount = scan.table.schema.columns.filter((c) => c.kind === 'physical').length;
  const keptPhysical = [...used].filter((i) => i < physicalCount).sort((a, b) => a - b);
  const keptMetadata = [...used].filter((i) => i >= physicalCount).sort((a, b) => a - b);
  if (keptPhysical.length === physicalCount && keptMetadata.length === scan.metadataKeys.length) return n;
  const source = scan.source;
  let physicalIndexes: number[] | null = keptPhysical;
  if (keptPhysical.length < physicalCount) {
    const ok = source.applyProjection?.(keptPhysical, { kind: 'ROW', fields: keptPhysical.map((i) => scan.fields[i]!), nullable: false }) ?? false;
    // A source that refuses keeps producing every physical column: no projection (and no `project=` digest).
    if (!ok) {
      if (keptMetadata.length === scan.metadataKeys.length) return n;
      physicalIndexes = null;
    }
  }
  const kept = [...(physicalIndexes ?? Array.from({ length: physicalCount }, (_, i) => i)), ...keptMetadata];
  const remap = new Map(kept.map((old, i) => [old, i]));
  const fields = kept.map((i) => scan.fields[i]!);
  const map = (r: RexNode): RexNode => rewriteInputRefs(r, (ref) => inputRef(remap.get(ref.index)!, ref.name, ref.type));
  const newScan: ScanNode = {
    ...scan,
    physicalIndexes,
    metadataKeys: keptMetadata.map((i) => scan.metadataKeys[i - physicalCount]!),
    fields,
    watermark:
      scan.watermark === null
        ? null
        : scan.watermark.kind === 'bounded'
          ? { ...scan.watermark, rowtime: map(scan.watermark.rowtime) }
          : { ...scan.watermark, rowtime: map(scan.watermark.rowtime), expr: map(scan.watermark.expr) },
  };
  return { ...n, input: newScan, projects: n.projects.map(map), condition: n.condition === null ? null : map(n.condition) };
}

/** LIMIT over a scan (possibly through a filter-free calc): tell the source, keep the limit operator. */
function pushLimitIntoScan(n: PlanNode): PlanNode {
  if (n.kind !== 'sort' || n.keys.length > 0 || n.fetch === null) return n;
  const limit = n.offset + n.fetch;
  const limited = (scan: ScanNode): ScanNode => {
    if (scan.limit !== undefined) return scan;
    scan.source.applyLimit?.(limit);
    return { ...scan, limit };
  };
  if (n.input.kind === 'scan') return { ...n, input: limited(n.input) };
  if (n.input.kind === 'calc' && n.input.condition === null && n.input.input.kind === 'scan') {
    return { ...n, input: { ...n.input, input: limited(n.input.input) } };
  }
  return n;
}

/** Calls applyReadableMetadata once per scan that reads metadata columns. */
function finalizeScans(root: PlanNode): PlanNode {
  const visit = (n: PlanNode): void => {
    if (n.kind === 'scan' && n.metadataKeys.length > 0) {
      n.source.applyReadableMetadata?.(n.metadataKeys, { kind: 'ROW', fields: n.fields, nullable: false });
    }
    inputsOf(n).forEach(visit);
  };
  visit(root);
  return root;
}
