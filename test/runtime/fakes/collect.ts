import type { Row } from '../../../src/types/row.js';
import type { OperatorFactory, Sink, SinkWriter, StreamOperator } from '../../../src/runtime/index.js';

/** An at-least-once sink that keeps every row and watermark in memory. */
export class CollectSink implements Sink<Row> {
  readonly rows: Row[] = [];
  readonly watermarks: number[] = [];
  createWriter(): SinkWriter<Row> {
    return {
      write: (b) => void this.rows.push(...b),
      writeWatermark: (w) => void this.watermarks.push(w),
      flush: async () => {},
      close: async () => {},
    };
  }
}

/** A map operator from a function over a batch. */
export function mapOp(name: string, f: (rows: Row[]) => Row[]): OperatorFactory {
  return {
    name,
    create(): StreamOperator {
      let out: (rows: Row[]) => void = () => {};
      return {
        open(ctx) {
          out = (r) => ctx.output.collect(r);
        },
        processBatch(rows) {
          out(f(rows));
        },
      };
    },
  };
}
