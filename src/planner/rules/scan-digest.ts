import type { ScanNode } from '../logical/plan-node.js';
import { explainRex } from '../logical/explain-rex.js';

/**
 * The push-down parts of a TableSourceScan's table digest, in Flink's order (before `project=`):
 * `partitions=[{dt=2024-01-01, hr=10}, ...]` and `filter=[...]`, several accepted filters folded
 * pairwise into `and(l, r)` as Flink's FilterPushDownSpec prints them (`filter=[]` when the source
 * accepted none), expressions as the physical plan prints them. Called by EXPLAIN.
 */
export function scanPushDownDigests(n: ScanNode): string[] {
  const out: string[] = [];
  if (n.partitions !== undefined) {
    const specs = n.partitions.map((p) => `{${[...p].map(([k, v]) => `${k}=${v ?? 'null'}`).join(', ')}}`);
    out.push(`partitions=[${specs.join(', ')}]`);
  }
  if (n.acceptedFilters !== undefined) {
    const names = n.table.schema.columns.filter((c) => c.kind === 'physical').map((c) => c.name);
    const texts = n.acceptedFilters.map((f) => explainRex(f, 'prefix', (i) => names[i] ?? `$${i}`));
    out.push(`filter=[${texts.length === 0 ? '' : texts.reduce((l, r) => `and(${l}, ${r})`)}]`);
  }
  return out;
}
