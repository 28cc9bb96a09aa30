import { RowKind } from '../../types/row-kind.js';
import { Row } from '../../types/row.js';
import { hashValue, valuesEqual } from '../../types/values/equality.js';

/** The rows a live result view shows, fed one change at a time. */
export interface LiveRows {
  /** Rows held now. */
  readonly size: number;
  /** Changes that scrolled away, for the changelog view's numbering; 0 for a table. */
  readonly dropped: number;
  apply(change: Row): void;
  /** The rows from `from` to `to` (exclusive), in arrival order. */
  slice(from: number, to: number): Row[];
  at(index: number): Row | undefined;
}

/**
 * Every change as it came, with its kind, for the changelog view; past `maxRows` the oldest scroll away
 * (a stream has no end).
 */
export class ChangelogRows implements LiveRows {
  private rows: Row[] = [];
  /** Index of the oldest row kept: rows before it are cut off in batches, not one shift per change. */
  private start = 0;
  dropped = 0;

  constructor(private readonly maxRows: number) {}

  get size(): number {
    return this.rows.length - this.start;
  }

  apply(change: Row): void {
    this.rows.push(change);
    if (this.size > this.maxRows) {
      this.start++;
      this.dropped++;
      if (this.start >= Math.max(1024, this.maxRows)) {
        this.rows = this.rows.slice(this.start);
        this.start = 0;
      }
    }
  }

  slice(from: number, to: number): Row[] {
    return this.rows.slice(this.start + from, this.start + Math.min(to, this.size));
  }

  at(index: number): Row | undefined {
    return index < 0 || index >= this.size ? undefined : this.rows[this.start + index];
  }
}

/**
 * A query's changelog applied to a table, for the table result view (Flink's materialized result):
 * +I/+U append a row, -U/-D remove the oldest equal one. Rows are found by a hash of their fields, so a
 * running aggregate over many keys costs the same per change whatever the table's size. Past `maxRows`
 * (`sql-client.execution.max-table-result.rows`) the oldest row goes, as in Flink.
 */
export class MaterializedTable implements LiveRows {
  readonly dropped = 0;
  /** Rows in arrival order, removed ones included until the next `compact`. */
  private slots: Row[] = [];
  private readonly removed = new Set<Row>();
  private readonly byHash = new Map<number, Row[]>();
  /** Index in `slots` before which every row is removed (the oldest rows dropped past `maxRows`). */
  private oldest = 0;

  constructor(private readonly maxRows: number) {}

  get size(): number {
    return this.slots.length - this.removed.size;
  }

  apply(change: Row): void {
    if (change.kind === RowKind.INSERT || change.kind === RowKind.UPDATE_AFTER) this.insert(Row.insert(...change.fields));
    else this.retract(change.fields);
  }

  /** The rows from `from` to `to` (exclusive), in arrival order. */
  slice(from: number, to: number): Row[] {
    this.compact();
    return this.slots.slice(from, to);
  }

  at(index: number): Row | undefined {
    this.compact();
    return this.slots[index];
  }

  private insert(row: Row): void {
    if (this.size >= this.maxRows) this.dropOldest();
    this.slots.push(row);
    const h = hashValue(row.fields);
    const bucket = this.byHash.get(h);
    if (bucket === undefined) this.byHash.set(h, [row]);
    else bucket.push(row);
  }

  private retract(fields: readonly unknown[]): void {
    const h = hashValue(fields);
    const bucket = this.byHash.get(h);
    if (bucket === undefined) return;
    const i = bucket.findIndex((r) => r.fields.length === fields.length && r.fields.every((v, j) => valuesEqual(v, fields[j])));
    if (i < 0) return;
    this.removed.add(bucket[i]!);
    this.unbucket(h, bucket, i);
  }

  private dropOldest(): void {
    while (this.oldest < this.slots.length && this.removed.has(this.slots[this.oldest]!)) this.oldest++;
    const row = this.slots[this.oldest];
    if (row === undefined) return;
    const h = hashValue(row.fields);
    const bucket = this.byHash.get(h)!;
    this.removed.add(row);
    this.unbucket(h, bucket, bucket.indexOf(row));
  }

  private unbucket(h: number, bucket: Row[], i: number): void {
    if (bucket.length === 1) this.byHash.delete(h);
    else bucket.splice(i, 1);
  }

  /** Takes removed rows out of `slots`: once per redraw at most, not once per change. */
  private compact(): void {
    if (this.removed.size === 0) return;
    this.slots = this.slots.filter((r) => !this.removed.has(r));
    this.removed.clear();
    this.oldest = 0;
  }
}
