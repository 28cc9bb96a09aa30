import type { Sink, SinkWriter, WriterInitContext } from '../../runtime/index.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { Row } from '../../types/row.js';
import { rowToString } from '../../types/values/format-value.js';

/** Where printed lines go: `process.stdout` / `process.stderr`, or a test's collector. */
export interface PrintTarget {
  /** Returns false when the target's buffer is full; `once('drain')` then signals it may take more. */
  write(text: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * The line prefix Flink's PrintSinkOutputWriter builds: `id> `, `id:3> ` or `3> ` (subtask numbers are
 * 1-based and only shown when the sink runs with parallelism > 1); empty without both.
 */
export function printPrefix(identifier: string | undefined, subtaskIndex: number, parallelism: number): string {
  let prefix = identifier ?? '';
  if (parallelism > 1) {
    if (prefix !== '') prefix += ':';
    prefix += String(subtaskIndex + 1);
  }
  return prefix === '' ? '' : `${prefix}> `;
}

/**
 * An at-least-once sink printing each row as `+I[1, a]`. One `write` call per batch: the batch is joined
 * into one string, and a full target (a slow terminal or pipe) becomes backpressure.
 */
export class PrintSink implements Sink<Row> {
  constructor(
    private readonly types: readonly LogicalType[],
    private readonly identifier: string | undefined,
    private readonly target: () => PrintTarget,
  ) {}

  createWriter(ctx: WriterInitContext): SinkWriter<Row> {
    const prefix = printPrefix(this.identifier, ctx.subtaskIndex, ctx.parallelism);
    const types = this.types;
    const target = this.target();
    let drained: Promise<void> | undefined;
    return {
      write(batch: readonly Row[]): void | Promise<void> {
        if (batch.length === 0) return drained;
        let text = '';
        for (let i = 0; i < batch.length; i++) text += prefix + rowToString(batch[i]!, types) + '\n';
        if (!target.write(text) && drained === undefined) {
          drained = new Promise<void>((resolve) =>
            target.once('drain', () => {
              drained = undefined;
              resolve();
            }),
          );
        }
        return drained;
      },
      flush: async () => {
        await drained;
      },
      close: async () => undefined,
    };
  }
}
