import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import type { Row } from '../types/row.js';
import { compareValues } from '../types/values/value-ops.js';

export interface SortKeySpec {
  readonly index: number;
  readonly descending: boolean;
  readonly nullsFirst: boolean;
}

/** Row comparator for ORDER BY keys. */
export function rowComparator(keys: readonly SortKeySpec[]): (a: Row, b: Row) => number {
  const byFields = fieldsComparator(keys);
  return (a, b) => byFields(a.fields, b.fields);
}

/** rowComparator over rows' field arrays, for operators that keep fields without their Row (no Row per comparison). */
export function fieldsComparator(keys: readonly SortKeySpec[]): (a: readonly unknown[], b: readonly unknown[]) => number {
  return (a, b) => {
    for (const k of keys) {
      const x = a[k.index];
      const y = b[k.index];
      if (x === null || y === null) {
        if (x === y) continue;
        return (x === null) === k.nullsFirst ? -1 : 1;
      }
      const c = compareValues(x, y);
      if (c !== 0) return k.descending ? -c : c;
    }
    return 0;
  };
}

/** Batch ORDER BY [OFFSET] [FETCH]: buffers all input, sorts stably at end of input. Parallelism 1. */
export class SortLimitOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private readonly rows: Row[] = [];

  constructor(
    private readonly keys: readonly SortKeySpec[],
    private readonly offset: number,
    private readonly fetch: number | null,
  ) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(rows: Row[]): void {
    for (const r of rows) this.rows.push(r);
  }

  finish(): void {
    this.rows.sort(rowComparator(this.keys));
    const end = this.fetch === null ? this.rows.length : this.offset + this.fetch;
    const out = this.rows.slice(this.offset, end);
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

/** LIMIT without ORDER BY over insert-only input: passes rows through until OFFSET + FETCH were seen. */
export class LimitOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private seen = 0;

  constructor(
    private readonly offset: number,
    private readonly fetch: number | null,
  ) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(rows: Row[]): void {
    const end = this.fetch === null ? Infinity : this.offset + this.fetch;
    const out: Row[] = [];
    for (const r of rows) {
      if (this.seen >= this.offset && this.seen < end) out.push(r);
      this.seen++;
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

export function sortLimitFactory(name: string, keys: readonly SortKeySpec[], offset: number, fetch: number | null): OperatorFactory {
  return { name, create: () => new SortLimitOperator(keys, offset, fetch) };
}

export function limitFactory(name: string, offset: number, fetch: number | null): OperatorFactory {
  return { name, create: () => new LimitOperator(offset, fetch) };
}
