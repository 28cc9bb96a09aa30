import type { CalcNode, JoinNode, LookupJoinNode, PlanField, PlanNode } from '../logical/plan-node.js';
import { collectInputRefs, inputRef, rewriteInputRefs } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';

/** Re-runs the rewrite rules on a changed input (so a new projecting calc merges into the calc below it). */
export type OptimizeChild = (child: PlanNode) => PlanNode;

/**
 * calc(join) whose calc does not read every join output: each join input keeps only the columns read
 * above the join or by the join itself (equi keys, the rest of the ON condition, which also holds an
 * interval join's time attributes, a temporal join's time fields; a window join's window_end is an equi
 * key), through a projecting calc. State then holds fewer columns, the new calc merges into a calc below
 * (dropping unread computed columns) and projection push-down reaches the scans. Flink's
 * ProjectJoinTransposeRule / field trimming do the same. Returns `n` itself when nothing can be dropped.
 */
export function pruneJoinInputs(n: PlanNode, optimizeChild: OptimizeChild): PlanNode {
  if (n.kind !== 'calc') return n;
  if (n.input.kind === 'join') return pruneJoin(n, n.input, optimizeChild);
  if (n.input.kind === 'lookup-join') return pruneLookupJoinInput(n, n.input, optimizeChild);
  return n;
}

/** The join output fields read by the calc. */
function usedByCalc(n: CalcNode): Set<number> {
  const used = new Set<number>();
  for (const p of n.projects) collectInputRefs(p, used);
  if (n.condition !== null) collectInputRefs(n.condition, used);
  return used;
}

/** The sorted indexes kept of an input with `arity` fields; at least one, as a row of no fields carries nothing to hash or compare. */
function keptOf(used: ReadonlySet<number>, arity: number): number[] {
  const kept = [...used].filter((i) => i < arity).sort((a, b) => a - b);
  return kept.length === 0 && arity > 0 ? [0] : kept;
}

/** `input` projected to the fields `kept` (in that order), re-optimized; `input` itself when it keeps all. */
function project(input: PlanNode, kept: readonly number[], optimizeChild: OptimizeChild): PlanNode {
  if (kept.length === input.fields.length) return input;
  const fields: PlanField[] = kept.map((i) => input.fields[i]!);
  const calc: CalcNode = { kind: 'calc', input, projects: kept.map((i) => inputRef(i, input.fields[i]!.name, input.fields[i]!.type)), condition: null, fields };
  return optimizeChild(calc);
}

/** Rewrites input refs through `mapping` (old index -> new index); every referenced index must be mapped. */
function remap(r: RexNode, mapping: ReadonlyMap<number, number>): RexNode {
  return rewriteInputRefs(r, (ref) => inputRef(mapping.get(ref.index)!, ref.name, ref.type));
}

function indexMap(kept: readonly number[], shift = 0): Map<number, number> {
  return new Map(kept.map((old, i) => [old, i + shift]));
}

function pruneJoin(n: CalcNode, join: JoinNode, optimizeChild: OptimizeChild): PlanNode {
  // INTERSECT ALL / EXCEPT ALL compare whole rows: every column is part of the operation.
  if (join.setOpAll === true) return n;
  const nl = join.left.fields.length;
  const nr = join.right.fields.length;
  const outputsRight = join.joinType !== 'SEMI' && join.joinType !== 'ANTI';
  const used = usedByCalc(n);
  const leftUsed = new Set<number>();
  const rightUsed = new Set<number>();
  const addJoined = (i: number): void => void (i < nl ? leftUsed.add(i) : rightUsed.add(i - nl));
  used.forEach(addJoined);
  join.leftKeys.forEach((k) => leftUsed.add(k));
  join.rightKeys.forEach((k) => rightUsed.add(k));
  if (join.condition !== null) collectInputRefs(join.condition).forEach(addJoined);
  if (join.temporal !== undefined) {
    leftUsed.add(join.temporal.leftTime);
    rightUsed.add(join.temporal.rightTime);
  }
  const leftKept = keptOf(leftUsed, nl);
  const rightKept = keptOf(rightUsed, nr);
  if (leftKept.length === nl && rightKept.length === nr) return n;
  const lmap = indexMap(leftKept);
  const rmap = indexMap(rightKept);
  // Over the joined row (left then right): the join's condition and, when the join outputs both sides, the calc.
  const joined = indexMap(leftKept);
  rightKept.forEach((old, j) => joined.set(nl + old, leftKept.length + j));
  const newJoin: JoinNode = {
    ...join,
    left: project(join.left, leftKept, optimizeChild),
    right: project(join.right, rightKept, optimizeChild),
    leftKeys: join.leftKeys.map((k) => lmap.get(k)!),
    rightKeys: join.rightKeys.map((k) => rmap.get(k)!),
    condition: join.condition === null ? null : remap(join.condition, joined),
    ...(join.temporal === undefined ? {} : { temporal: { leftTime: lmap.get(join.temporal.leftTime)!, rightTime: rmap.get(join.temporal.rightTime)! } }),
    // The join's own fields keep their (outer-join nullable) types.
    fields: outputsRight ? [...leftKept.map((i) => join.fields[i]!), ...rightKept.map((i) => join.fields[nl + i]!)] : leftKept.map((i) => join.fields[i]!),
  };
  const above = outputsRight ? joined : lmap;
  return { ...n, input: newJoin, projects: n.projects.map((p) => remap(p, above)), condition: n.condition === null ? null : remap(n.condition, above) };
}

/**
 * calc(lookup-join): the probe side keeps only what is read above, by the lookup keys and the condition.
 * The dimension's columns stay (the lookup source returns whole rows).
 */
function pruneLookupJoinInput(n: CalcNode, join: LookupJoinNode, optimizeChild: OptimizeChild): PlanNode {
  const nl = join.input.fields.length;
  const leftUsed = new Set<number>();
  const addJoined = (i: number): void => void (i < nl && leftUsed.add(i));
  usedByCalc(n).forEach(addJoined);
  join.leftKeys.forEach((k) => leftUsed.add(k));
  if (join.condition !== null) collectInputRefs(join.condition).forEach(addJoined);
  const leftKept = keptOf(leftUsed, nl);
  if (leftKept.length === nl) return n;
  const joined = indexMap(leftKept);
  join.rightFields.forEach((_, j) => joined.set(nl + j, leftKept.length + j));
  const newJoin: LookupJoinNode = {
    ...join,
    input: project(join.input, leftKept, optimizeChild),
    leftKeys: join.leftKeys.map((k) => joined.get(k)!),
    condition: join.condition === null ? null : remap(join.condition, joined),
    fields: [...leftKept.map((i) => join.fields[i]!), ...join.fields.slice(nl)],
  };
  return { ...n, input: newJoin, projects: n.projects.map((p) => remap(p, joined)), condition: n.condition === null ? null : remap(n.condition, joined) };
}
