// Lowering of the nodes that start a pipeline.
import { PlanningError } from '../../errors/sluice-error.js';
import { WatermarkStrategy } from '../../runtime/source/watermark-strategy.js';
import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import { ValuesSource } from '../../table-runtime/values-source.js';
import { compileRex } from '../rex/compile-rex.js';
import type { ScanNode, ValuesNode } from '../logical/plan-node.js';
import type { Lowering, Stream } from './lowering-context.js';

/** VALUES: a one-subtask source of its literal rows. */
export function lowerValues(b: Lowering, n: ValuesNode, name: string): Stream {
  const v = b.vertex('source', name, 1);
  v.source = new ValuesSource(n.rows.map((r) => new Row(RowKind.INSERT, r.slice())));
  return { id: v.id, parallelism: 1 };
}

/** A table scan: the source's vertex at its parallelism, with the table's watermark in streaming mode. */
export function lowerScan(b: Lowering, n: ScanNode, name: string): Stream {
  const o = b.options;
  const id = n.identifier;
  if (o.mode === 'batch' && !n.source.getChangelogMode().isInsertOnly()) {
    throw new PlanningError(
      `Querying a table in batch mode is currently only possible for INSERT-only table sources. But the source for table '${id.catalog}.${id.database}.${id.object}' produces other changelog messages than just INSERT.`,
    );
  }
  const provider = n.source.getScanRuntimeProvider({ batchMode: o.mode === 'batch', transientValues: b.hasTransientValues(n) });
  if (o.mode === 'batch' && !provider.bounded) {
    throw new PlanningError(
      `Querying an unbounded table '${id.catalog}.${id.database}.${id.object}' in batch mode is not allowed. The table source is unbounded.`,
    );
  }
  const p = provider.parallelism ?? o.parallelism;
  const v = b.vertex('source', name, p);
  v.source = provider.source;
  if (n.watermark !== null && o.mode === 'streaming') {
    const rowtime = compileRex(n.watermark.rowtime, { timeZone: o.timeZone });
    const ts = (r: Row): number => (rowtime(r.fields) as number | null) ?? Number.MIN_SAFE_INTEGER;
    if (n.watermark.kind === 'bounded') {
      v.watermarkStrategy = WatermarkStrategy.forBoundedOutOfOrderness<Row>(n.watermark.delayMs, ts);
    } else {
      // A general watermark expression: derive the delay from the difference on first use would be
      // wrong for non-linear expressions; approximate with the expression as the timestamp (delay 0).
      const expr = compileRex(n.watermark.expr, { timeZone: o.timeZone });
      v.watermarkStrategy = WatermarkStrategy.forBoundedOutOfOrderness<Row>(0, (r) => (expr(r.fields) as number | null) ?? Number.MIN_SAFE_INTEGER);
    }
  }
  return { id: v.id, parallelism: p };
}
