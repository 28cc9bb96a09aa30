// A bounded one-split source of given rows (any RowKind): the sequence source with its numbers mapped to the rows.
import type { Row } from '../../../src/types/row.js';
import type { ReaderOutput, SourceOutput, SourceReader, SourceReaderContext } from '../../../src/runtime/index.js';
import { SequenceSource } from '../../runtime/fakes/sequence-source.js';

function mapped(out: SourceOutput<Row>, rows: readonly Row[]): SourceOutput<Row> {
  return {
    collect: (r, ts) => out.collect(rows[(r.fields[0] as number) - 1]!, ts),
    collectBatch: (rs) => out.collectBatch(rs.map((r) => rows[(r.fields[0] as number) - 1]!)),
    emitWatermark: (w) => out.emitWatermark(w),
    markIdle: () => out.markIdle(),
    markActive: () => out.markActive(),
  };
}

export class ListSource extends SequenceSource {
  constructor(private readonly rows: readonly Row[]) {
    super({ from: 1, to: rows.length, splits: 1 });
  }

  override createReader(ctx: SourceReaderContext): SourceReader<Row, never> {
    const inner = super.createReader(ctx) as SourceReader<Row, never>;
    const rows = this.rows;
    return new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'pollNext') {
          return (output: ReaderOutput<Row>) =>
            target.pollNext({
              ...mapped(output, rows),
              createOutputForSplit: (id: string) => mapped(output.createOutputForSplit(id), rows),
              releaseOutputForSplit: (id: string) => output.releaseOutputForSplit(id),
            });
        }
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }
}
