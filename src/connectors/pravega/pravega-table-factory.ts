import type { ConfigOption } from '../../config/config-option.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { DynamicTableFactoryContext, DynamicTableSinkFactory, DynamicTableSourceFactory } from '../../factories/dynamic-table-factory.js';
import type { DynamicTableSink } from '../../factories/dynamic-table-sink.js';
import type { DynamicTableSource } from '../../factories/dynamic-table-source.js';
import { FactoryOptions } from '../../factories/factory-options.js';
import { createTableFactoryHelper } from '../../factories/table-factory-helper.js';
import { PravegaDynamicSink, PravegaDynamicSource } from './pravega-dynamic-table.js';
import { PRAVEGA_OPTIONAL_OPTIONS, PRAVEGA_REQUIRED_OPTIONS, readPravegaSinkConfig, readPravegaSourceConfig } from './pravega-options.js';

/** `'connector' = 'pravega'` (Flink's `FlinkPravegaDynamicTableFactory`): required `controller-uri`, `scope`, `format`. */
export class PravegaTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {
  readonly factoryIdentifier = 'pravega';
  readonly description = 'Pravega streams: segment-aware FLIP-27 source, transactional exactly-once sink.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [...PRAVEGA_REQUIRED_OPTIONS, FactoryOptions.FORMAT];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return [...PRAVEGA_OPTIONAL_OPTIONS, FactoryOptions.SCAN_PARALLELISM, FactoryOptions.SINK_PARALLELISM];
  }

  createDynamicTableSource(ctx: DynamicTableFactoryContext): DynamicTableSource {
    const helper = createTableFactoryHelper(this, ctx);
    // Optional discovery first so a missing 'format' is reported with the other missing required keys.
    const format = helper.discoverOptionalDecodingFormat(FactoryOptions.FORMAT);
    helper.validate();
    if (format === undefined) throw new ValidationError("Could not find required scan format 'format'.");
    const config = readPravegaSourceConfig(helper.options);
    return new PravegaDynamicSource(config, format, ctx.table.schema.toPhysicalRowType(), helper.options.get(FactoryOptions.SCAN_PARALLELISM));
  }

  createDynamicTableSink(ctx: DynamicTableFactoryContext): DynamicTableSink {
    const helper = createTableFactoryHelper(this, ctx);
    const format = helper.discoverOptionalEncodingFormat(FactoryOptions.FORMAT);
    helper.validate();
    if (format === undefined) throw new ValidationError("Could not find required sink format 'format'.");
    const config = readPravegaSinkConfig(helper.options);
    const physical = ctx.table.schema.toPhysicalRowType();
    if (config.routingKeyField !== undefined) {
      const f = physical.fields.find((x) => x.name === config.routingKeyField);
      if (f === undefined) throw new ValidationError(`Key field '${config.routingKeyField}' not found`);
      if (f.type.kind !== 'VARCHAR' && f.type.kind !== 'CHAR') {
        throw new ValidationError(`Key field '${config.routingKeyField}' must be of type STRING, but is ${f.type.kind}`);
      }
    }
    return new PravegaDynamicSink(config, format, physical, helper.options.get(FactoryOptions.SINK_PARALLELISM));
  }
}
