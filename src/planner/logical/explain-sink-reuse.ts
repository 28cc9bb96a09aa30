import type { PlanNode, SinkNode } from './plan-node.js';

/** Two sinks write the same table the same way: same identifier, overwrite flag and static partition. */
function sameTarget(a: SinkNode, b: SinkNode): boolean {
  const id = (s: SinkNode): string => `${s.identifier.catalog}\u0000${s.identifier.database}\u0000${s.identifier.object}`;
  if (id(a) !== id(b) || a.overwrite !== b.overwrite || a.staticPartition.size !== b.staticPartition.size) return false;
  for (const [k, v] of a.staticPartition) if (b.staticPartition.get(k) !== v) return false;
  return true;
}

/**
 * Flink 2.x's sink reuse (`table.optimizer.reuse-sink-enabled`, on by default): the INSERTs of a statement set
 * that write one table become one Sink over a `Union(all=[true])` of their queries, at the place of the first.
 * The union's columns are named after the first query's, as Flink's are. Other roots are kept as they are.
 */
export function reuseSinks(roots: readonly PlanNode[]): PlanNode[] {
  const groups: PlanNode[][] = [];
  for (const r of roots) {
    const group = r.kind === 'sink' ? groups.find((g) => g[0]!.kind === 'sink' && sameTarget(g[0]! as SinkNode, r)) : undefined;
    if (group !== undefined) group.push(r);
    else groups.push([r]);
  }
  return groups.map((g) => {
    if (g.length === 1) return g[0]!;
    const sinks = g as SinkNode[];
    const first = sinks[0]!;
    const union: PlanNode = { kind: 'union', inputs: sinks.map((s) => s.input), fields: first.input.fields };
    return { ...first, input: union };
  });
}
