import type { ConfigOption } from '../../config/config-option.js';
import type { DynamicTableFactoryContext, DynamicTableSinkFactory } from '../../factories/dynamic-table-factory.js';
import type { DynamicTableSink } from '../../factories/dynamic-table-sink.js';
import { createTableFactoryHelper } from '../../factories/table-factory-helper.js';
import { BlackHoleTableSink } from './blackhole-table-sink.js';

/**
 * Finds the blackhole sink by `'connector' = 'blackhole'`. It declares no option at all, so any other key
 * is reported as "Unsupported options found for 'blackhole'" (Flink added this strictness after silent
 * typos, FLINK-18631).
 */
export class BlackHoleTableSinkFactory implements DynamicTableSinkFactory {
  readonly factoryIdentifier = 'blackhole';
  readonly description = 'Discards every row (for benchmarks and tests).';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  createDynamicTableSink(ctx: DynamicTableFactoryContext): DynamicTableSink {
    createTableFactoryHelper(this, ctx).validate();
    return new BlackHoleTableSink();
  }
}
