import type { Row } from '../types/row.js';

/**
 * A bounded hand-over of result batches from a running job to a reader (TableResult.collect()).
 * `push` resolves only when there is room, so a slow reader slows the job down instead of letting
 * results pile up in memory.
 */
export class ResultQueue implements AsyncIterable<Row> {
  private readonly batches: Row[][] = [];
  private ended = false;
  private failure: unknown;
  private waitingReader: (() => void) | undefined;
  private waitingWriters: (() => void)[] = [];

  constructor(private readonly capacity = 8) {}

  push(rows: Row[]): void | Promise<void> {
    if (rows.length === 0) return;
    this.batches.push(rows);
    this.wakeReader();
    if (this.batches.length < this.capacity) return;
    return new Promise<void>((resolve) => this.waitingWriters.push(resolve));
  }

  end(): void {
    this.ended = true;
    this.wakeReader();
  }

  /** Ends the stream with an error the reader sees on its next pull. */
  fail(error: unknown): void {
    this.failure = error;
    this.ended = true;
    this.wakeReader();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Row> {
    for (;;) {
      const batch = this.batches.shift();
      if (batch) {
        this.releaseWriter();
        for (const row of batch) yield row;
        continue;
      }
      if (this.failure !== undefined) throw this.failure;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.waitingReader = resolve));
    }
  }

  /** Reads everything that is left; for bounded results. */
  async drain(): Promise<Row[]> {
    const out: Row[] = [];
    for await (const r of this) out.push(r);
    return out;
  }

  private wakeReader(): void {
    const r = this.waitingReader;
    this.waitingReader = undefined;
    r?.();
  }

  private releaseWriter(): void {
    while (this.batches.length < this.capacity && this.waitingWriters.length > 0) this.waitingWriters.shift()!();
  }
}
