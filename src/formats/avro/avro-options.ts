import { ConfigOptions } from '../../config/config-options.js';

/** Options of `'format' = 'avro'` (Flink's AvroFormatOptions), keys after `avro.`. */
export const AvroOptions = {
  ENCODING: ConfigOptions.key('encoding')
    .enumType(['binary', 'json'])
    .defaultValue('binary')
    .withDescription("Avro encoding of each message; Sluice supports 'binary' only."),
  CODEC: ConfigOptions.key('codec')
    .stringType()
    .noDefaultValue()
    .withDescription('Compression codec of Avro container files (filesystem connector); not used for messages.'),
  TIMESTAMP_MAPPING_LEGACY: ConfigOptions.key('timestamp_mapping.legacy')
    .booleanType()
    .defaultValue(true)
    .withDescription('Map TIMESTAMP and TIMESTAMP_LTZ both to timestamp-millis/micros (the only mapping Sluice supports).'),
} as const;
