import { typesEqualIgnoringNullability } from '../../types/logical-type.js';
import type { RexNode } from '../rex/rex-node.js';
import { isKeyPreservingCast } from './key-preserving-cast.js';
import type { CalcNode, PlanNode, ScanNode } from './plan-node.js';

/**
 * The unique keys an updating node's changes are for (Flink's upsert keys, FlinkRelMdUpsertKeys), as field
 * positions, the first the one Flink names: a scan's primary key, a ChangelogNormalize's key, a group aggregate's
 * group keys, carried through calcs that project them unchanged or through a key-preserving CAST, and through
 * Top-Ns, which add their partition key with the rank number. Empty when Sluice derives none (Flink may derive
 * more, e.g. for joins): a missing key only costs an UPDATE_BEFORE a consumer did not need.
 */
export function upsertKeys(n: PlanNode): (readonly number[])[] {
  switch (n.kind) {
    case 'scan': {
      const pk = primaryKeyIndexes(n);
      return pk === undefined ? [] : [pk];
    }
    case 'changelog-normalize':
      return [n.uniqueKeys];
    case 'aggregate':
      return n.window === undefined ? [n.groupKeys.map((_, i) => i)] : [];
    case 'rank': {
      if (n.window !== undefined) return [];
      const numbered = n.outputRankNumber && n.limit !== null && (n.rankType ?? 'ROW_NUMBER') === 'ROW_NUMBER';
      return [...upsertKeys(n.input), ...(numbered ? [[...n.partitionKeys, n.fields.length - 1]] : [])];
    }
    case 'calc':
      return upsertKeys(n.input).flatMap((key) => {
        const out = key.map((k) => keyPosition(n, k));
        return out.includes(-1) ? [] : [out];
      });
    default:
      return [];
  }
}

/** Where a calc puts input field `k` as itself or cast without merging values (see isKeyPreservingCast); -1 when it does not. */
function keyPosition(calc: CalcNode, k: number): number {
  const plain = calc.projects.findIndex((p) => p.kind === 'input-ref' && p.index === k);
  return plain >= 0 ? plain : calc.projects.findIndex((p) => isKeyCastOf(p, k));
}

function isKeyCastOf(p: RexNode, k: number): boolean {
  if (p.kind !== 'call' || p.op !== 'CAST' || p.operands.length !== 1) return false;
  const arg = p.operands[0]!;
  return arg.kind === 'input-ref' && arg.index === k && (typesEqualIgnoringNullability(arg.type, p.type) || isKeyPreservingCast(arg.type, p.type));
}

/** The primary key's positions among the scan's fields; undefined if the table has none or a key column is not read. */
export function primaryKeyIndexes(scan: ScanNode): readonly number[] | undefined {
  const pk = scan.table.schema.primaryKey;
  if (pk === undefined) return undefined;
  const physical = scan.table.schema.columns.filter((c) => c.kind === 'physical').map((c) => c.name);
  const produced = scan.physicalIndexes === null ? physical : scan.physicalIndexes.map((i) => physical[i]!);
  const out = pk.columns.map((c) => produced.indexOf(c));
  return out.every((i) => i >= 0) ? out : undefined;
}
