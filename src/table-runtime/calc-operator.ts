import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import type { ColumnBatch } from '../types/columns/column-batch.js';
import { Row } from '../types/row.js';

/** A compiled scalar over a row's fields. */
export type FieldsFunction = (fields: readonly unknown[]) => unknown;

/**
 * A compiled filter + projection over a whole batch (planner/rex `compileRexCalc`): appends to `out`
 * one new row, of the input row's kind, per input row that passes. Called once per batch by the
 * operator; synchronous, never awaits.
 */
export type CalcProgram = (rows: readonly Row[], out: Row[]) => void;

/**
 * Projection plus filter (Flink's StreamExecCalc): keeps rows whose condition is TRUE and computes the
 * projections; the row kind passes through. One pass over the batch, one output batch.
 */
export class CalcOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private readonly program: CalcProgram;
  /** Set when the Calc only picks input fields (no condition, no computation): the fields' indexes. */
  private readonly fieldIndexes: readonly number[] | undefined;

  /**
   * Either one generated `program` per batch (what the planner uses), with the picked field indexes when
   * the program is a plain projection (so columnar batches stay columnar), or per-field closures and a
   * condition closure (kept for callers that build expressions by hand).
   */
  constructor(program: CalcProgram, fieldIndexes?: readonly number[]);
  constructor(projections: readonly FieldsFunction[], condition: FieldsFunction | null);
  constructor(p: CalcProgram | readonly FieldsFunction[], second?: readonly number[] | FieldsFunction | null) {
    if (typeof p === 'function') {
      this.program = p;
      this.fieldIndexes = Array.isArray(second) ? second : undefined;
    } else {
      this.program = closureProgram(p, typeof second === 'function' ? second : null);
      this.fieldIndexes = undefined;
    }
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(rows: Row[]): void {
    const out: Row[] = [];
    this.program(rows, out);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /** A plain projection picks columns and touches no row; any other Calc works on the batch's rows. */
  processColumns(batch: ColumnBatch): void {
    if (this.fieldIndexes !== undefined) this.ctx.output.collectColumns(batch.select(this.fieldIndexes));
    else this.processBatch(batch.toRows());
  }
}

function closureProgram(projs: readonly FieldsFunction[], cond: FieldsFunction | null): CalcProgram {
  const n = projs.length;
  return (rows, out) => {
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const f = row.fields;
      if (cond !== null && cond(f) !== true) continue;
      const fields = new Array<unknown>(n);
      for (let i = 0; i < n; i++) fields[i] = projs[i]!(f);
      out.push(new Row(row.kind, fields));
    }
  };
}

/**
 * A factory creating one CalcOperator per subtask around a generated batch `program`; `fieldIndexes`
 * when the program only picks those input fields.
 */
export function calcOperatorFactory(name: string, program: CalcProgram, fieldIndexes?: readonly number[]): OperatorFactory;
/** As above from per-field closures (the form before generated Calc programs). */
export function calcOperatorFactory(name: string, projections: readonly FieldsFunction[], condition: FieldsFunction | null): OperatorFactory;
export function calcOperatorFactory(name: string, p: CalcProgram | readonly FieldsFunction[], second?: readonly number[] | FieldsFunction | null): OperatorFactory {
  if (typeof p === 'function') {
    const fieldIndexes = Array.isArray(second) ? second : undefined;
    return { name, create: () => new CalcOperator(p, fieldIndexes) };
  }
  const program = closureProgram(p, typeof second === 'function' ? second : null);
  return { name, create: () => new CalcOperator(program) };
}
