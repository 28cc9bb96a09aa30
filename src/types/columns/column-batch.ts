import type { Row } from '../row.js';
import { assembleRows } from './row-assembler.js';
import { vectorValue, type ColumnVector } from './column-vector.js';

/**
 * A batch of +I rows held as columns (an Arrow record batch read in place). Sources whose format is
 * columnar hand these on instead of `Row[]`; an operator or sink writer that can work on columns takes the
 * batch as it is (`processColumns`, `writeColumns`), and anywhere else the runtime builds the rows once with
 * `toRows()`. So a batch stays columnar exactly as far as the next operator allows, and nothing downstream
 * of the first row-based operator sees a difference.
 *
 * Immutable: `select` and `slice` return new batches sharing the buffers.
 */
export class ColumnBatch {
  constructor(
    /** One vector per field of the row type, in field order. */
    readonly columns: readonly ColumnVector[],
    /** Number of rows. */
    readonly length: number,
  ) {}

  /** The rows, built anew on each call (the receiver owns them, as with any emitted batch). */
  toRows(): Row[] {
    return assembleRows(this.columns, this.length);
  }

  /** The batch with only the given columns, in the given order (a projection; no row is touched). */
  select(indexes: readonly number[]): ColumnBatch {
    return new ColumnBatch(
      indexes.map((i) => this.columns[i]!),
      this.length,
    );
  }

  /** Value `j` of column `c` (for a consumer that reads a few cells, not whole rows). */
  value(c: number, j: number): unknown {
    return vectorValue(this.columns[c]!, j);
  }
}
