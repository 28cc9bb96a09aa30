import { RowKind } from './row-kind.js';

/**
 * One row flowing through Sluice: a change kind and its field values, by position.
 *
 * Field values follow the representation documented in `docs/values.md` (BIGINT is a `bigint`,
 * DECIMAL a `Decimal`, TIMESTAMP epoch milliseconds, ...). `fields` is mutable on purpose: operators on
 * the hot path may reuse a row they own, but never one they received and passed on.
 */
export class Row {
  constructor(
    public kind: RowKind,
    public readonly fields: unknown[],
  ) {}

  static insert(...fields: unknown[]): Row {
    return new Row(RowKind.INSERT, fields);
  }

  static of(kind: RowKind, fields: unknown[]): Row {
    return new Row(kind, fields);
  }

  get arity(): number {
    return this.fields.length;
  }
}

/** Rows travel between operators in batches: one call per batch, never one await per row. */
export type RowBatch = Row[];
