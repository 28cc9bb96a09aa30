import type { ConfigOption } from '../../config/config-option.js';
import { Configuration } from '../../config/configuration.js';
import { identifierToString } from '../../catalog/object-identifier.js';
import type { DynamicTableFactoryContext, DynamicTableSourceFactory } from '../../factories/dynamic-table-factory.js';
import type { DynamicTableSource } from '../../factories/dynamic-table-source.js';
import type { Factory } from '../../factories/factory.js';
import { createTableFactoryHelper } from '../../factories/table-factory-helper.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { DataGenOptions } from './datagen-options.js';
import { DataGenTableSource } from './datagen-table-source.js';
import { buildFieldGenerators } from './field-generators.js';

const TABLE_OPTIONS = [DataGenOptions.ROWS_PER_SECOND, DataGenOptions.NUMBER_OF_ROWS, DataGenOptions.SOURCE_PARALLELISM] as const;

/**
 * Finds the datagen source by `'connector' = 'datagen'`. As Flink's DataGenTableSourceFactory it first
 * builds every column's generator (which checks the column's options against its type and kind), then
 * validates with the concrete `fields.<column>.<option>` keys as the supported set.
 */
export class DataGenTableSourceFactory implements DynamicTableSourceFactory {
  readonly factoryIdentifier = 'datagen';
  readonly description = 'Generates random or sequential rows, bounded or unbounded, at a given rate.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(DataGenOptions) as ConfigOption<unknown>[];
  }

  createDynamicTableSource(ctx: DynamicTableFactoryContext): DynamicTableSource {
    const options = new Configuration(ctx.table.options);
    const columns = ctx.table.schema.physicalColumns().map((c) => ({ name: c.name, type: c.type }));
    const plan = buildFieldGenerators(columns, options);
    const concrete: Factory = {
      factoryIdentifier: this.factoryIdentifier,
      requiredOptions: () => [],
      optionalOptions: () => [...TABLE_OPTIONS, ...plan.options],
    };
    const helper = createTableFactoryHelper(concrete, ctx);
    helper.validate();
    const o = helper.options;
    const rowsPerSecond = o.get(DataGenOptions.ROWS_PER_SECOND);
    if (!(rowsPerSecond > 0)) throw new ValidationError(`Invalid value for option 'rows-per-second': '${rowsPerSecond}'. It must be positive.`);
    let total: number | null = o.get(DataGenOptions.NUMBER_OF_ROWS) ?? null;
    if (total !== null && total < 0) throw new ValidationError(`Invalid value for option 'number-of-rows': '${total}'. It must not be negative.`);
    for (const g of plan.generators) if (g.kind === 'sequence') total = total === null ? g.count : Math.min(total, g.count);
    return new DataGenTableSource({
      generators: plan.generators,
      rowsPerSecond,
      totalRows: total,
      parallelism: o.get(DataGenOptions.SOURCE_PARALLELISM),
      tableName: identifierToString(ctx.identifier),
    });
  }
}
