import type { Sink, WriterInitContext } from '../runtime/sink/sink.js';
import type { SinkWriter } from '../runtime/sink/sink-writer.js';
import type { Row } from '../types/row.js';

/** Receives a SELECT's rows; a returned promise is backpressure. `end` is called once after the last batch. */
export interface RowCollector {
  push(rows: Row[]): void | Promise<void>;
  end(): void;
}

/**
 * The sink at the end of a SELECT's job graph: hands each batch to the collector (Flink's CollectSink).
 * Runs with parallelism 1 so the collector sees one ordered stream. At-least-once: no committer.
 */
export class CollectSink implements Sink<Row> {
  constructor(private readonly collector: RowCollector) {}

  createWriter(_ctx: WriterInitContext): SinkWriter<Row> {
    const collector = this.collector;
    let ended = false;
    return {
      write(batch: readonly Row[]): void | Promise<void> {
        if (batch.length === 0) return;
        // The writer must not keep `batch`; the collector may, so it gets its own array.
        return collector.push(batch.slice());
      },
      async flush(endOfInput: boolean): Promise<void> {
        if (endOfInput && !ended) {
          ended = true;
          collector.end();
        }
      },
      async close(): Promise<void> {},
    };
  }
}
