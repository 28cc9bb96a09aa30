import type { CalcNode, PlanField, PlanNode, RankNode } from '../logical/plan-node.js';
import { collectInputRefs, inputRef, rewriteInputRefs } from '../rex/rex-node.js';
import type { OptimizeChild } from './prune-join-inputs.js';
import { upsertKeys } from '../logical/upsert-keys.js';

/**
 * calc(rank) whose calc does not read every column of the rank's input: the rank reads only the columns read
 * above it plus its partition keys, order keys and the input's upsert key, through a projecting calc below it
 * (Flink's CalcRankTransposeRule). The rank's state then holds narrower rows, and the new calc merges into a
 * calc below (dropping unread computed columns). The rank records the width it had before (`prunedFrom`), so
 * rows restored from a checkpoint of the unpruned plan are narrowed as they are read. Returns `n` itself when
 * nothing can be dropped.
 */
export function pruneRankInput(n: PlanNode, optimizeChild: OptimizeChild): PlanNode {
  if (n.kind !== 'calc' || n.input.kind !== 'rank') return n;
  const rank = n.input;
  const arity = rank.input.fields.length;
  const used = new Set<number>();
  for (const p of n.projects) collectInputRefs(p, used);
  if (n.condition !== null) collectInputRefs(n.condition, used);
  for (const k of rank.partitionKeys) used.add(k);
  for (const k of rank.orderKeys) used.add(k.index);
  // The unique key an update-fast rank strategy takes (rankStrategy) must survive the pruning.
  for (const k of upsertKeys(rank.input).find((key) => rank.partitionKeys.every((p) => key.includes(p))) ?? []) used.add(k);
  const kept = [...used].filter((i) => i < arity).sort((a, b) => a - b);
  if (kept.length === 0 || kept.length === arity) return n;
  const position = new Map(kept.map((old, i) => [old, i]));
  // The rank number, when the rank emits it, follows the input's columns.
  if (rank.outputRankNumber) position.set(arity, kept.length);
  const fields: PlanField[] = kept.map((i) => rank.input.fields[i]!);
  const below: CalcNode = { kind: 'calc', input: rank.input, projects: kept.map((i) => inputRef(i, fields[position.get(i)!]!.name, fields[position.get(i)!]!.type)), condition: null, fields };
  const narrowed: RankNode = {
    ...rank,
    input: optimizeChild(below),
    partitionKeys: rank.partitionKeys.map((k) => position.get(k)!),
    orderKeys: rank.orderKeys.map((k) => ({ ...k, index: position.get(k.index)! })),
    fields: [...fields, ...(rank.outputRankNumber ? [rank.fields[arity]!] : [])],
    ...(rank.window === undefined ? {} : { window: { ...rank.window, startField: position.get(rank.window.startField)!, endField: position.get(rank.window.endField)! } }),
    prunedFrom: { width: rank.prunedFrom?.width ?? arity, kept: rank.prunedFrom === undefined ? kept : kept.map((i) => rank.prunedFrom!.kept[i]!) },
  };
  const remap = (r: Parameters<typeof rewriteInputRefs>[0]) => rewriteInputRefs(r, (ref) => inputRef(position.get(ref.index)!, ref.name, ref.type));
  return { ...n, input: narrowed, projects: n.projects.map(remap), condition: n.condition === null ? null : remap(n.condition) };
}
