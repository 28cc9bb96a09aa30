import { ConfigOptions } from '../../config/config-options.js';
import { FactoryOptions } from '../../factories/factory-options.js';

/** Options of `'connector' = 'print'` (Flink's PrintConnectorOptions). */
export const PrintOptions = {
  PRINT_IDENTIFIER: ConfigOptions.key('print-identifier')
    .stringType()
    .noDefaultValue()
    .withDescription('Message that identifies print and is prefixed to the output of the value.'),
  STANDARD_ERROR: ConfigOptions.key('standard-error')
    .booleanType()
    .defaultValue(false)
    .withDescription('True, if the format should print to standard error instead of standard out.'),
  SINK_PARALLELISM: FactoryOptions.SINK_PARALLELISM,
} as const;
