import { RowKind, rowKindShortString } from './row-kind.js';

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

  /** As Flink's `Row.toString()`: the change kind, then the fields, e.g. `+I[1, a, null]`. */
  toString(): string {
    return `${rowKindShortString(this.kind)}[${this.fields.map(fieldText).join(', ')}]`;
  }

  /** `console.log(row)` and `util.inspect` print `+I[1, a]` rather than the object's internals. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

/**
 * A field as Flink prints it in a row: null as `null`, BIGINT without the `n`, arrays and nested rows in brackets,
 * maps as `{k=v}` (Java's Map.toString) and bytes as Java's signed byte values.
 */
function fieldText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Row) return v.toString();
  if (v instanceof Uint8Array) return `[${Array.from(v, (b) => (b << 24) >> 24).join(', ')}]`;
  if (Array.isArray(v)) return `[${v.map(fieldText).join(', ')}]`;
  if (v instanceof Map) return `{${Array.from(v, ([k, x]) => `${fieldText(k)}=${fieldText(x)}`).join(', ')}}`;
  return String(v);
}

/** Rows travel between operators in batches: one call per batch, never one await per row. */
export type RowBatch = Row[];
