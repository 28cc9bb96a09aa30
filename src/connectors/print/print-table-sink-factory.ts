import type { ConfigOption } from '../../config/config-option.js';
import type { DynamicTableFactoryContext, DynamicTableSinkFactory } from '../../factories/dynamic-table-factory.js';
import type { DynamicTableSink } from '../../factories/dynamic-table-sink.js';
import { createTableFactoryHelper } from '../../factories/table-factory-helper.js';
import { PrintOptions } from './print-options.js';
import type { PrintTarget } from './print-sink.js';
import { PrintTableSink } from './print-table-sink.js';

/** Finds the print sink by `'connector' = 'print'`. */
export class PrintTableSinkFactory implements DynamicTableSinkFactory {
  readonly factoryIdentifier = 'print';
  readonly description = 'Prints rows as +I[...] to standard out or standard error.';

  /** @param target overrides stdout/stderr for every sink this factory creates (tests, embedding). */
  constructor(private readonly target?: () => PrintTarget) {}

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(PrintOptions) as ConfigOption<unknown>[];
  }

  createDynamicTableSink(ctx: DynamicTableFactoryContext): DynamicTableSink {
    const helper = createTableFactoryHelper(this, ctx);
    helper.validate();
    const o = helper.options;
    const types = ctx.table.schema.toPhysicalRowType().fields.map((f) => f.type);
    return new PrintTableSink(types, {
      identifier: o.get(PrintOptions.PRINT_IDENTIFIER),
      standardError: o.get(PrintOptions.STANDARD_ERROR),
      parallelism: o.get(PrintOptions.SINK_PARALLELISM),
      ...(this.target ? { target: this.target } : {}),
    });
  }
}
