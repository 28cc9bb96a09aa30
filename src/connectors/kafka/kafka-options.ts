/**
 * The `WITH` options of the `kafka` and `upsert-kafka` connectors, with Flink's keys, defaults and
 * descriptions (Flink's KafkaConnectorOptions). `properties.*` is not declared here: it is a passed-through
 * prefix whose keys the client layer validates (client/kafka-properties.ts). The format options
 * (`format`, `key.format`, `value.format`) are FactoryOptions' shared constants.
 */
import { ConfigOptions } from '../../config/config-options.js';
import { FactoryOptions } from '../../factories/factory-options.js';

export const STARTUP_MODES = ['earliest-offset', 'latest-offset', 'group-offsets', 'timestamp', 'specific-offsets'] as const;
export type StartupMode = (typeof STARTUP_MODES)[number];

export const BOUNDED_MODES = ['unbounded', 'latest-offset', 'group-offsets', 'timestamp', 'specific-offsets'] as const;
export type BoundedMode = (typeof BOUNDED_MODES)[number];

export const VALUE_FIELDS_INCLUDE = ['ALL', 'EXCEPT_KEY'] as const;
export type ValueFieldsInclude = (typeof VALUE_FIELDS_INCLUDE)[number];

export const DELIVERY_GUARANTEES = ['none', 'at-least-once', 'exactly-once'] as const;

export const LOST_TRANSACTION_ACTIONS = ['fail', 'warn'] as const;
export type LostTransactionAction = (typeof LOST_TRANSACTION_ACTIONS)[number];

export const KafkaOptions = {
  TOPIC: ConfigOptions.key('topic')
    .stringType()
    .asList()
    .noDefaultValue()
    .withDescription(
      "Topic name(s) to read data from when the table is used as source, separated by semicolon like 'topic-1;topic-2'. " +
        "For a sink, the topic to write to; with several topics the 'topic' metadata column chooses, and must be one of them.",
    ),
  TOPIC_PATTERN: ConfigOptions.key('topic-pattern')
    .stringType()
    .noDefaultValue()
    .withDescription("Regular expression of topic names to read from; for a sink, the written 'topic' metadata must match it."),
  PROPS_BOOTSTRAP_SERVERS: ConfigOptions.key('properties.bootstrap.servers')
    .stringType()
    .noDefaultValue()
    .withDescription('Required Kafka server connection string.'),
  PROPS_GROUP_ID: ConfigOptions.key('properties.group.id')
    .stringType()
    .noDefaultValue()
    .withDescription('Consumer group id: the starting point of group-offsets, and where checkpointed offsets are committed (for monitoring).'),
  FORMAT: FactoryOptions.FORMAT,
  KEY_FORMAT: FactoryOptions.KEY_FORMAT,
  VALUE_FORMAT: FactoryOptions.VALUE_FORMAT,
  KEY_FIELDS: ConfigOptions.key('key.fields')
    .stringType()
    .asList()
    .defaultValues()
    .withDescription(
      "Defines an explicit list of physical columns from the table schema that configure the data type for the key format. By default, this list is empty and thus a key is undefined.",
    ),
  KEY_FIELDS_PREFIX: ConfigOptions.key('key.fields-prefix')
    .stringType()
    .noDefaultValue()
    .withDescription(
      "Defines a custom prefix for all fields of the key format to avoid name clashes with fields of the value format. By default, the prefix is empty.",
    ),
  VALUE_FIELDS_INCLUDE: ConfigOptions.key('value.fields-include')
    .enumType(VALUE_FIELDS_INCLUDE)
    .defaultValue('ALL')
    .withDescription('Defines a strategy how to deal with key columns in the data type of the value format.'),
  SCAN_STARTUP_MODE: ConfigOptions.key('scan.startup.mode')
    .enumType(STARTUP_MODES)
    .defaultValue('group-offsets')
    .withDescription('Startup mode for Kafka consumer.'),
  SCAN_STARTUP_SPECIFIC_OFFSETS: ConfigOptions.key('scan.startup.specific-offsets')
    .stringType()
    .noDefaultValue()
    .withDescription("Optional offsets used in case of 'specific-offsets' startup mode, e.g. 'partition:0,offset:42;partition:1,offset:300'."),
  SCAN_STARTUP_TIMESTAMP_MILLIS: ConfigOptions.key('scan.startup.timestamp-millis')
    .longType()
    .noDefaultValue()
    .withDescription("Optional timestamp used in case of 'timestamp' startup mode."),
  SCAN_BOUNDED_MODE: ConfigOptions.key('scan.bounded.mode')
    .enumType(BOUNDED_MODES)
    .defaultValue('unbounded')
    .withDescription('Bounded mode for Kafka consumer.'),
  SCAN_BOUNDED_SPECIFIC_OFFSETS: ConfigOptions.key('scan.bounded.specific-offsets')
    .stringType()
    .noDefaultValue()
    .withDescription("Optional offsets used in case of 'specific-offsets' bounded mode; a partition not listed is not read."),
  SCAN_BOUNDED_TIMESTAMP_MILLIS: ConfigOptions.key('scan.bounded.timestamp-millis')
    .longType()
    .noDefaultValue()
    .withDescription("Optional timestamp used in case of 'timestamp' bounded mode."),
  SCAN_TOPIC_PARTITION_DISCOVERY: ConfigOptions.key('scan.topic-partition-discovery.interval')
    .durationType()
    .defaultValue(5 * 60_000)
    .withDescription('Optional interval for consumer to discover dynamically created Kafka partitions periodically; 0 disables discovery.'),
  SCAN_PARALLELISM: FactoryOptions.SCAN_PARALLELISM,
  SINK_PARTITIONER: ConfigOptions.key('sink.partitioner')
    .stringType()
    .defaultValue('default')
    .withDescription(
      "Optional output partitioning from Flink's partitions into Kafka's partitions: 'default' (Kafka's partitioner), " +
        "'fixed' (each sink subtask writes to one partition), 'round-robin' (only without key fields).",
    ),
  DELIVERY_GUARANTEE: ConfigOptions.key('sink.delivery-guarantee')
    .enumType(DELIVERY_GUARANTEES)
    .defaultValue('at-least-once')
    .withDescription('Optional delivery guarantee when committing.')
    // Flink's pre-1.14 key, still read (with a warning naming the new key).
    .withDeprecatedKeys('sink.semantic'),
  TRANSACTIONAL_ID_PREFIX: ConfigOptions.key('sink.transactional-id-prefix')
    .stringType()
    .noDefaultValue()
    .withDescription(
      'If the delivery guarantee is configured as exactly-once this value must be set; it is used as the prefix of the identifier of all opened Kafka transactions.',
    ),
  SINK_COMMIT_ON_LOST_TRANSACTION: ConfigOptions.key('sink.commit.on-lost-transaction')
    .enumType(LOST_TRANSACTION_ACTIONS)
    .defaultValue('fail')
    .withDescription(
      'Sluice-specific (Flink has no such key). Exactly-once: what to do when a pre-committed transaction can no longer be ' +
        "committed, typically because the job was down for longer than 'properties.transaction.timeout.ms' and the broker aborted it. " +
        "'fail' fails the job (without restarts) with a message naming the transaction and the likely cause; 'warn' logs the same message, " +
        'drops the transaction (its records are lost) and continues.',
    ),
  SINK_PARALLELISM: FactoryOptions.SINK_PARALLELISM,
  SINK_BUFFER_FLUSH_MAX_ROWS: ConfigOptions.key('sink.buffer-flush.max-rows')
    .intType()
    .defaultValue(0)
    .withDescription('upsert-kafka: the max size of buffered records before flush; 0 disables buffering.'),
  SINK_BUFFER_FLUSH_INTERVAL: ConfigOptions.key('sink.buffer-flush.interval')
    .durationType()
    .defaultValue(0)
    .withDescription('upsert-kafka: the flush interval of the buffer; 0 disables buffering.'),
} as const;

/** The key prefix passed to the Kafka client (Flink's `properties.`). */
export const PROPERTIES_PREFIX = 'properties.';
