import { ConfigOptions } from '../config/config-options.js';

/** Options every table factory understands (Flink's `FactoryUtil` constants). */
export const FactoryOptions = {
  CONNECTOR: ConfigOptions.key('connector')
    .stringType()
    .noDefaultValue()
    .withDescription('Uniquely identifies the connector of a dynamic table.'),
  FORMAT: ConfigOptions.key('format')
    .stringType()
    .noDefaultValue()
    .withDescription('Defines the format identifier for encoding data.'),
  KEY_FORMAT: ConfigOptions.key('key.format').stringType().noDefaultValue().withDescription('The format for the key part of a message.'),
  VALUE_FORMAT: ConfigOptions.key('value.format')
    .stringType()
    .noDefaultValue()
    .withFallbackKeys('format')
    .withDescription('The format for the value part of a message.'),
  PROPERTY_VERSION: ConfigOptions.key('property-version').intType().defaultValue(1).withDescription('Version of the option layout.'),
  SCAN_PARALLELISM: ConfigOptions.key('scan.parallelism').intType().noDefaultValue().withDescription('Parallelism of the source.'),
  SINK_PARALLELISM: ConfigOptions.key('sink.parallelism').intType().noDefaultValue().withDescription('Parallelism of the sink.'),
  WATERMARK_IDLE_TIMEOUT: ConfigOptions.key('scan.watermark.idle-timeout')
    .durationType()
    .noDefaultValue()
    .withDescription('A split that emits nothing for this long is marked idle and does not hold back the watermark.'),
  WATERMARK_EMIT_STRATEGY: ConfigOptions.key('scan.watermark.emit.strategy')
    .enumType(['on-event', 'on-periodic'] as const)
    .defaultValue('on-periodic')
    .withDescription('When watermarks are emitted.'),
  WATERMARK_ALIGNMENT_GROUP: ConfigOptions.key('scan.watermark.alignment.group')
    .stringType()
    .noDefaultValue()
    .withDescription('Sources in one group pause splits whose watermark runs ahead of the group by more than max-drift.'),
  WATERMARK_ALIGNMENT_MAX_DRIFT: ConfigOptions.key('scan.watermark.alignment.max-drift')
    .durationType()
    .noDefaultValue()
    .withDescription('How far a split may run ahead of its alignment group.'),
  WATERMARK_ALIGNMENT_UPDATE_INTERVAL: ConfigOptions.key('scan.watermark.alignment.update-interval')
    .durationType()
    .defaultValue(1000)
    .withDescription('How often the alignment group minimum is recomputed.'),
} as const;
