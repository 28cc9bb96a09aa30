import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';

/** A compiled scalar over a row's fields. */
export type FieldsFunction = (fields: readonly unknown[]) => unknown;

/**
 * Projection plus filter (Flink's StreamExecCalc): keeps rows whose condition is TRUE and computes the
 * projections; the row kind passes through. One pass over the batch, one output batch.
 */
export class CalcOperator implements StreamOperator {
  private ctx!: OperatorContext;

  constructor(
    private readonly projections: readonly FieldsFunction[],
    private readonly condition: FieldsFunction | null,
  ) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(rows: Row[]): void {
    const out: Row[] = [];
    const cond = this.condition;
    const projs = this.projections;
    const n = projs.length;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const f = row.fields;
      if (cond !== null && cond(f) !== true) continue;
      const fields = new Array<unknown>(n);
      for (let i = 0; i < n; i++) fields[i] = projs[i]!(f);
      out.push(new Row(row.kind, fields));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

export function calcOperatorFactory(name: string, projections: readonly FieldsFunction[], condition: FieldsFunction | null): OperatorFactory {
  return { name, create: () => new CalcOperator(projections, condition) };
}
