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
    .withDescription(
      'Flink\'s legacy timestamp mapping: TIMESTAMP(0..3) as timestamp-millis, finer TIMESTAMPs and TIMESTAMP_LTZ refused. ' +
        'false: TIMESTAMP as local-timestamp-millis/micros and TIMESTAMP_LTZ as timestamp-millis/micros, up to 6 digits.',
    ),
} as const;
