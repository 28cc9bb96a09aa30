import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import type { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';

/** In front of upsert sinks: removes -U rows, since the sink applies +U by key (Flink's DropUpdateBefore). */
export class DropUpdateBeforeOperator implements StreamOperator {
  private ctx!: OperatorContext;

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(rows: Row[]): void {
    const out = rows.filter((r) => r.kind !== RowKind.UPDATE_BEFORE);
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

export function dropUpdateBeforeFactory(): OperatorFactory {
  return { name: 'DropUpdateBefore', create: () => new DropUpdateBeforeOperator() };
}
