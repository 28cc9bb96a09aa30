import type { PlanNode, ScanNode } from '../logical/plan-node.js';
import type { SourceExpression } from '../../factories/source-filter.js';
import { compileRex } from '../rex/compile-rex.js';
import { call, collectInputRefs, inputRef, rewriteInputRefs } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { DataTypes } from '../../types/data-types.js';
import { andOf, andOrNull, conjunctsOf, deterministic } from './conjuncts.js';
import { SourceExpressionConverter } from './source-expressions.js';

/** Flink's `partition.default-name` default: the folder name of a NULL partition value. */
const DEFAULT_PARTITION_NAME = '__DEFAULT_PARTITION__';

type CalcOverScan = PlanNode & { kind: 'calc'; input: ScanNode };

/**
 * calc(scan) with a condition: partition push-down, then filter push-down (Flink's order). Each source
 * ability is called at most once per scan: the ScanNode records that it was (`partitions`,
 * `acceptedFilters`), so later rewrites of the same scan do not call again.
 */
export function pushPredicatesIntoScan(n: PlanNode, timeZone: string): PlanNode {
  if (n.kind !== 'calc' || n.condition === null || n.input.kind !== 'scan') return n;
  // Flink's filter sits above the WatermarkAssigner and only reaches a source that took the watermark
  // (PushWatermarkIntoTableSourceScanRule first): otherwise rows the filter drops would no longer
  // advance the watermark. So no partition or filter push-down past a watermark the source cannot take.
  if (n.input.watermark !== null && n.input.source.supportsWatermarkPushDown !== true) return n;
  return pushFilters(pushPartitions(n as CalcOverScan), timeZone);
}

/** The table's physical columns and where each scan output field comes from. */
function physicalLayout(scan: ScanNode): { names: readonly string[]; physicalIndexOf: (field: number) => number | undefined } {
  const names = scan.table.schema.columns.filter((c) => c.kind === 'physical').map((c) => c.name);
  const idx = scan.physicalIndexes;
  const physicalIndexOf = (field: number): number | undefined =>
    idx === null ? (field < names.length ? field : undefined) : field < idx.length ? idx[field] : undefined;
  return { names, physicalIndexOf };
}

/**
 * Conjuncts reading only partition columns are decided per partition here (the planner prunes, as
 * Flink's PushPartitionIntoTableSourceScanRule): each listed partition's value texts are cast to the
 * columns' types (NULL for the default partition) and the conjuncts evaluated with the expression
 * engine; the survivors go to `applyPartitions` and the conjuncts leave the Calc. A source that cannot
 * list its partitions gets nothing here, and the conjuncts are offered as filters instead.
 */
function pushPartitions(n: CalcOverScan): CalcOverScan {
  const scan = n.input;
  const source = scan.source;
  const keys = scan.table.partitionKeys;
  if (scan.partitions !== undefined || keys.length === 0 || source.listPartitions === undefined || source.applyPartitions === undefined) return n;
  const { names, physicalIndexOf } = physicalLayout(scan);
  const keyOf = (field: number): number => {
    const p = physicalIndexOf(field);
    return p === undefined ? -1 : keys.indexOf(names[p]!);
  };
  const conjuncts = conjunctsOf(n.condition!);
  const isPartitionPredicate = (c: RexNode): boolean => {
    const refs = [...collectInputRefs(c)];
    return deterministic(c) && refs.length > 0 && refs.every((i) => keyOf(i) >= 0);
  };
  const decided = conjuncts.filter(isPartitionPredicate);
  if (decided.length === 0) return n;
  const listed = source.listPartitions();
  if (listed === null) return n;
  // Over a row of the partition value texts in key order: each key read as its column's type.
  const overTexts = rewriteInputRefs(andOf(decided), (ref) => {
    const text = inputRef(keyOf(ref.index), ref.name, DataTypes.STRING());
    const t = ref.type.kind;
    return t === 'VARCHAR' || t === 'CHAR' ? { ...text, type: ref.type } : call('CAST', [text], ref.type);
  });
  const predicate = compileRex(overTexts);
  const defaultName = scan.table.options['partition.default-name'] ?? DEFAULT_PARTITION_NAME;
  const remaining = listed.filter((p) => {
    const texts = keys.map((k) => {
      const v = p.get(k);
      return v === undefined || v === null || v === defaultName ? null : v;
    });
    return predicate(texts) === true;
  });
  source.applyPartitions(remaining);
  const rest = conjuncts.filter((c) => !decided.includes(c));
  return { ...n, input: { ...scan, partitions: remaining }, condition: andOrNull(rest) };
}

/**
 * Offers the deterministic conjuncts over physical columns to `applyFilters` (Flink's
 * PushFilterIntoTableSourceScanRule); those the source accepts and does not return as remaining leave
 * the Calc. Conjuncts over metadata columns, or non-deterministic ones (RAND, NOW, a PROCTIME() column),
 * are not offered. Computed columns were inlined by the calc merge: a conjunct over one is offered as
 * its expression over physical columns, as Flink offers it after transposing filter and project.
 */
function pushFilters(n: CalcOverScan, timeZone: string): PlanNode {
  const scan = n.input;
  const source = scan.source;
  if (n.condition === null || scan.acceptedFilters !== undefined || source.applyFilters === undefined) return n;
  const { names, physicalIndexOf } = physicalLayout(scan);
  const converter = new SourceExpressionConverter(physicalIndexOf);
  const conjuncts = conjunctsOf(n.condition);
  const offered = new Map<SourceExpression, RexNode>();
  const offeredOf = new Map<RexNode, SourceExpression>();
  for (const c of conjuncts) {
    if (!deterministic(c)) continue;
    const e = converter.toSource(c);
    if (e === undefined) continue;
    offered.set(e, c);
    offeredOf.set(c, e);
  }
  if (offered.size === 0) return n;
  const result = source.applyFilters([...offered.keys()], converter.compiler(timeZone));
  const accepted = new Set(result.accepted.filter((e) => offered.has(e)));
  const remaining = new Set(result.remaining);
  const keep = conjuncts.filter((c) => {
    const e = offeredOf.get(c);
    return e === undefined || remaining.has(e) || !accepted.has(e);
  });
  const overPhysical = (r: RexNode): RexNode =>
    rewriteInputRefs(r, (ref) => {
      const p = physicalIndexOf(ref.index)!;
      return inputRef(p, names[p]!, ref.type);
    });
  const acceptedFilters = [...accepted].map((e) => overPhysical(offered.get(e)!));
  return { ...n, input: { ...scan, acceptedFilters }, condition: andOrNull(keep) };
}
