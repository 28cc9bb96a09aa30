import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import type { Row } from '../types/row.js';

/** UNION ALL: forwards every input's batches unchanged (watermarks: the runtime's minimum over inputs). */
export class UnionOperator implements StreamOperator {
  private ctx!: OperatorContext;

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(rows: Row[]): void {
    if (rows.length > 0) this.ctx.output.collect(rows);
  }
}

export function unionOperatorFactory(name: string): OperatorFactory {
  return { name, create: () => new UnionOperator() };
}
