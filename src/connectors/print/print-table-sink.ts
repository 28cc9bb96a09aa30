import type { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableSink, SinkContext, SinkRuntimeProvider } from '../../factories/dynamic-table-sink.js';
import type { Sink } from '../../runtime/index.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { Row } from '../../types/row.js';
import { PrintSink, type PrintTarget } from './print-sink.js';

export interface PrintSettings {
  readonly identifier: string | undefined;
  readonly standardError: boolean;
  readonly parallelism: number | undefined;
  /** Overrides stdout/stderr (tests, an embedding application). */
  readonly target?: () => PrintTarget;
}

/** `'connector' = 'print'`: prints every row kind it is given (Flink's PrintTableSink). */
export class PrintTableSink implements DynamicTableSink {
  constructor(
    private readonly types: readonly LogicalType[],
    private readonly settings: PrintSettings,
  ) {}

  getChangelogMode(requested: ChangelogMode): ChangelogMode {
    return requested;
  }

  getSinkRuntimeProvider(_ctx: SinkContext): SinkRuntimeProvider {
    const s = this.settings;
    const target = s.target ?? (() => (s.standardError ? process.stderr : process.stdout));
    const sink = new PrintSink(this.types, s.identifier, target) as Sink<Row, unknown, unknown>;
    return s.parallelism === undefined ? { sink } : { sink, parallelism: s.parallelism };
  }

  asSummaryString(): string {
    return this.settings.standardError ? 'Print to System.err' : 'Print to System.out';
  }

  /** Each row is formatted to text as it is written. */
  keepsRowValues(): boolean {
    return false;
  }
}
