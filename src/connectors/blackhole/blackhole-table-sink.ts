import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableSink, SinkContext, SinkRuntimeProvider } from '../../factories/dynamic-table-sink.js';
import type { Sink, SinkWriter } from '../../runtime/index.js';
import { RowKind } from '../../types/row-kind.js';
import type { Row } from '../../types/row.js';

/** A Sink V2 that drops every batch, columnar ones unbuilt; flushing has nothing to wait for. */
export class BlackHoleSink implements Sink<Row> {
  createWriter(): SinkWriter<Row> {
    return {
      write: () => undefined,
      writeColumns: () => undefined,
      flush: async () => undefined,
      close: async () => undefined,
    };
  }
}

/**
 * `'connector' = 'blackhole'`: discards rows. Accepts every kind the query produces except that it
 * does not ask for UPDATE_BEFORE, as Flink's BlackHoleSink, so the planner may drop -U rows early.
 */
export class BlackHoleTableSink implements DynamicTableSink {
  getChangelogMode(requested: ChangelogMode): ChangelogMode {
    const kinds = [RowKind.INSERT, RowKind.UPDATE_AFTER, RowKind.DELETE].filter((k) => requested.contains(k));
    return ChangelogMode.of(...kinds);
  }

  getSinkRuntimeProvider(_ctx: SinkContext): SinkRuntimeProvider {
    return { sink: new BlackHoleSink() as Sink<Row, unknown, unknown> };
  }

  asSummaryString(): string {
    return 'BlackHole';
  }

  keepsRowValues(): boolean {
    return false;
  }
}
