import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import type { FieldsFunction } from './calc-operator.js';

export interface UnnestSpec {
  /** The collection of the current row (ARRAY value, MAP or MULTISET `Map`). */
  readonly collection: FieldsFunction;
  readonly kind: 'ARRAY' | 'MAP' | 'MULTISET';
  /** ARRAY of ROW: the row's fields become columns. */
  readonly expandRow: boolean;
  /** Width of the produced columns (without ordinality), for null padding. */
  readonly width: number;
  readonly withOrdinality: boolean;
  /** LEFT JOIN UNNEST: a row with an empty or NULL collection is kept with NULLs. */
  readonly keepEmpty: boolean;
}

/** `CROSS JOIN UNNEST(expr)`: one output row per element, the input fields followed by the element's. */
export class UnnestOperator implements StreamOperator {
  private ctx!: OperatorContext;

  constructor(private readonly spec: UnnestSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(rows: Row[]): void {
    const out: Row[] = [];
    const s = this.spec;
    for (const row of rows) {
      const c = s.collection(row.fields);
      let n = 0;
      const emit = (cols: readonly unknown[]): void => {
        n++;
        out.push(new Row(row.kind, s.withOrdinality ? [...row.fields, ...cols, n] : [...row.fields, ...cols]));
      };
      if (c !== null && c !== undefined) {
        if (s.kind === 'ARRAY') for (const e of c as unknown[]) emit(s.expandRow ? ((e as unknown[] | null) ?? new Array(s.width).fill(null)) : [e]);
        else if (s.kind === 'MAP') for (const [k, v] of c as Map<unknown, unknown>) emit([k, v]);
        else for (const [e, count] of c as Map<unknown, number>) for (let i = 0; i < count; i++) emit([e]);
      }
      if (n === 0 && s.keepEmpty) out.push(new Row(row.kind, [...row.fields, ...new Array(s.width + (s.withOrdinality ? 1 : 0)).fill(null)]));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

export function unnestOperatorFactory(name: string, spec: UnnestSpec): OperatorFactory {
  return { name, create: () => new UnnestOperator(spec) };
}
