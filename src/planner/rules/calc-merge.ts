import type { CalcNode, PlanNode } from '../logical/plan-node.js';
import { call, inputRef, rewriteInputRefs } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { DataTypes } from '../../types/data-types.js';
import { deterministic } from './conjuncts.js';

/** How many times each input field is read by `rs` (a field read twice counts twice). */
function refCounts(rs: readonly (RexNode | null)[]): Map<number, number> {
  const counts = new Map<number, number>();
  const walk = (r: RexNode): void => {
    if (r.kind === 'input-ref') counts.set(r.index, (counts.get(r.index) ?? 0) + 1);
    else if (r.kind === 'call') r.operands.forEach(walk);
  };
  for (const r of rs) if (r !== null) walk(r);
  return counts;
}

/**
 * calc(calc(x)) whose outer calc does not read every inner projection: the inner calc stops computing the
 * unread ones (a table's unused computed column such as `PROCTIME()` costs nothing per row any more, and
 * no longer blocks the merge). Returns `n` itself when every inner projection is read.
 */
export function pruneInnerProjects(n: CalcNode & { input: CalcNode }): CalcNode & { input: CalcNode } {
  const inner = n.input;
  const counts = refCounts([...n.projects, n.condition]);
  const kept = inner.projects.map((_, i) => i).filter((i) => counts.has(i));
  if (kept.length === inner.projects.length) return n;
  const newIndex = new Map(kept.map((old, i) => [old, i]));
  const remap = (r: RexNode): RexNode => rewriteInputRefs(r, (ref) => inputRef(newIndex.get(ref.index)!, ref.name, ref.type));
  const pruned: CalcNode = { ...inner, projects: kept.map((i) => inner.projects[i]!), fields: kept.map((i) => inner.fields[i]!) };
  return { ...n, input: pruned, projects: n.projects.map(remap), condition: n.condition === null ? null : remap(n.condition) };
}

/**
 * calc(calc(x)) -> calc(x): prunes the inner projections the outer calc does not read, then inlines the rest
 * into the outer expressions and ANDs the conditions (inner first). A non-deterministic inner projection
 * read more than once is not inlined (each copy would yield its own value): the calcs then stay apart,
 * pruned. Flink's FlinkCalcMergeRule makes the same choice.
 */
export function mergeCalcs(n: PlanNode): PlanNode {
  if (n.kind !== 'calc' || n.input.kind !== 'calc') return n;
  const pruned = pruneInnerProjects(n as CalcNode & { input: CalcNode });
  const inner = pruned.input;
  const counts = refCounts([...pruned.projects, pruned.condition]);
  if (inner.projects.some((p, i) => !deterministic(p) && (counts.get(i) ?? 0) > 1)) return pruned === n ? n : pruned;
  const inline = (r: RexNode): RexNode => rewriteInputRefs(r, (ref) => inner.projects[ref.index]!);
  const outerCond = pruned.condition === null ? null : inline(pruned.condition);
  const condition =
    inner.condition === null ? outerCond : outerCond === null ? inner.condition : call('AND', [inner.condition, outerCond], DataTypes.BOOLEAN());
  return { kind: 'calc', input: inner.input, projects: pruned.projects.map(inline), condition, fields: pruned.fields };
}
