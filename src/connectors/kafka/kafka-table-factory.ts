/**
 * `'connector' = 'kafka'` and `'connector' = 'upsert-kafka'` (Flink's KafkaDynamicTableFactory and
 * UpsertKafkaDynamicTableFactory). Both validate every option before anything touches a broker.
 */
import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import type { DynamicTableFactoryContext, DynamicTableSinkFactory, DynamicTableSourceFactory } from '../../factories/dynamic-table-factory.js';
import type { DynamicTableSink } from '../../factories/dynamic-table-sink.js';
import type { DynamicTableSource } from '../../factories/dynamic-table-source.js';
import type { DecodingFormat, EncodingFormat } from '../../factories/format.js';
import { createTableFactoryHelper, type TableFactoryHelper } from '../../factories/table-factory-helper.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { ChangelogMode } from '../../factories/changelog-mode.js';
import { KafkaDynamicSink } from './kafka-dynamic-sink.js';
import { KafkaDynamicSource } from './kafka-dynamic-source.js';
import { KafkaOptions, PROPERTIES_PREFIX } from './kafka-options.js';
import {
  clientSettingsOf,
  deliveryOf,
  formatProjectionOf,
  sinkPartitionerOf,
  startingOffsetsOf,
  stoppingOffsetsOf,
  subscriptionOf,
  type FormatProjection,
} from './kafka-table-options.js';

type Mode = 'kafka' | 'upsert-kafka';

function tableName(ctx: DynamicTableFactoryContext): string {
  return ctx.identifier.object;
}

function physicalArity(ctx: DynamicTableFactoryContext): number {
  return ctx.table.schema.physicalColumns().length;
}

function checkKeyFormat(mode: Mode, id: string | undefined, changelog: ChangelogMode | undefined, which: 'key' | 'value'): void {
  if (changelog === undefined || changelog.isInsertOnly()) return;
  if (mode === 'upsert-kafka') {
    throw new ValidationError(`'upsert-kafka' connector doesn't support '${id}' as ${which} format, because '${id}' is not in insert-only mode.`);
  }
  if (which === 'key') {
    throw new ValidationError(`A key format should only deal with INSERT-only records. But ${id} has a changelog mode of ${changelog.toString()}.`);
  }
}

/** Key fields, prefix and projection for either connector. */
function projectionOf(mode: Mode, ctx: DynamicTableFactoryContext, conf: ReadableConfig, hasKeyFormat: boolean): FormatProjection {
  const schema = ctx.table.schema;
  const include = conf.get(KafkaOptions.VALUE_FIELDS_INCLUDE);
  const prefix = conf.get(KafkaOptions.KEY_FIELDS_PREFIX);
  if (mode === 'upsert-kafka') {
    const pk = schema.primaryKey;
    if (pk === undefined) {
      throw new ValidationError(
        "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies which columns should be read from or write to the Kafka message key. " +
          "The PRIMARY KEY also defines records in the 'upsert-kafka' table should update or delete on which keys.",
      );
    }
    return formatProjectionOf(schema, pk.columns, prefix, include, true);
  }
  return formatProjectionOf(schema, conf.get(KafkaOptions.KEY_FIELDS), prefix, include, hasKeyFormat);
}

function checkPrimaryKey(mode: Mode, ctx: DynamicTableFactoryContext, conf: ReadableConfig, valueChangelog: ChangelogMode): void {
  if (mode === 'kafka' && ctx.table.schema.primaryKey !== undefined && valueChangelog.isInsertOnly()) {
    throw new ValidationError(
      `The Kafka table '${ctx.identifier.object}' with '${conf.get(KafkaOptions.VALUE_FORMAT)}' format doesn't support defining PRIMARY KEY constraint on the table, ` +
        "because it can't guarantee the semantic of primary key.",
    );
  }
}

abstract class KafkaTableFactoryBase implements DynamicTableSourceFactory, DynamicTableSinkFactory {
  abstract readonly factoryIdentifier: Mode;
  abstract readonly description: string;
  abstract requiredOptions(): readonly ConfigOption<unknown>[];
  abstract optionalOptions(): readonly ConfigOption<unknown>[];

  prefixesPassedThrough(): readonly string[] {
    return [PROPERTIES_PREFIX];
  }

  /**
   * What Flink checks alike for a source and a sink once their formats are discovered: every option
   * is known, the key/value formats' changelog modes fit the connector, a PRIMARY KEY is allowed,
   * and which fields go to the key and which to the value.
   */
  private validateTable(
    helper: TableFactoryHelper,
    ctx: DynamicTableFactoryContext,
    keyFormat: DecodingFormat | EncodingFormat | undefined,
    valueFormat: DecodingFormat | EncodingFormat,
  ): { conf: ReadableConfig; projection: FormatProjection } {
    const mode = this.factoryIdentifier;
    helper.validateExcept(PROPERTIES_PREFIX);
    const conf = helper.options;
    checkKeyFormat(mode, conf.get(KafkaOptions.KEY_FORMAT), keyFormat?.getChangelogMode(), 'key');
    checkKeyFormat(mode, conf.get(KafkaOptions.VALUE_FORMAT), valueFormat.getChangelogMode(), 'value');
    checkPrimaryKey(mode, ctx, conf, valueFormat.getChangelogMode());
    return { conf, projection: projectionOf(mode, ctx, conf, keyFormat !== undefined) };
  }

  createDynamicTableSource(ctx: DynamicTableFactoryContext): DynamicTableSource {
    const mode = this.factoryIdentifier;
    const helper = createTableFactoryHelper(this, ctx);
    const keyFormat: DecodingFormat | undefined = helper.discoverOptionalDecodingFormat(KafkaOptions.KEY_FORMAT);
    const valueFormat = helper.discoverDecodingFormat(KafkaOptions.VALUE_FORMAT);
    const { conf, projection } = this.validateTable(helper, ctx, keyFormat, valueFormat);
    const client = clientSettingsOf(ctx.table.options);
    const subscription = subscriptionOf(conf);
    return new KafkaDynamicSource({
      tableName: tableName(ctx),
      physicalArity: physicalArity(ctx),
      projection,
      keyFormat,
      valueFormat,
      client,
      subscription,
      // upsert-kafka always reads the whole compacted topic.
      starting: mode === 'upsert-kafka' ? { kind: 'earliest-offset' } : startingOffsetsOf(conf, subscription, client),
      stopping: stoppingOffsetsOf(conf, subscription, client),
      discoveryIntervalMs: conf.get(KafkaOptions.SCAN_TOPIC_PARTITION_DISCOVERY),
      upsert: mode === 'upsert-kafka',
      parallelism: conf.get(KafkaOptions.SCAN_PARALLELISM),
    });
  }

  createDynamicTableSink(ctx: DynamicTableFactoryContext): DynamicTableSink {
    const mode = this.factoryIdentifier;
    const helper = createTableFactoryHelper(this, ctx);
    const keyFormat: EncodingFormat | undefined = helper.discoverOptionalEncodingFormat(KafkaOptions.KEY_FORMAT);
    const valueFormat = helper.discoverEncodingFormat(KafkaOptions.VALUE_FORMAT);
    const { conf, projection } = this.validateTable(helper, ctx, keyFormat, valueFormat);
    const keyFields = projection.keyIndexes;
    const { guarantee, transactionalIdPrefix } = deliveryOf(conf);
    const upsert = mode === 'upsert-kafka';
    return new KafkaDynamicSink({
      physicalArity: physicalArity(ctx),
      projection,
      keyFormat,
      valueFormat,
      client: clientSettingsOf(ctx.table.options),
      subscription: subscriptionOf(conf),
      deliveryGuarantee: guarantee,
      transactionalIdPrefix,
      onLostTransaction: conf.get(KafkaOptions.SINK_COMMIT_ON_LOST_TRANSACTION),
      partitioner: upsert ? 'default' : sinkPartitionerOf(conf, keyFields.length > 0 ? ['key'] : []),
      upsert,
      bufferFlushMaxRows: upsert ? conf.get(KafkaOptions.SINK_BUFFER_FLUSH_MAX_ROWS) : 0,
      bufferFlushIntervalMs: upsert ? conf.get(KafkaOptions.SINK_BUFFER_FLUSH_INTERVAL) : 0,
      parallelism: conf.get(KafkaOptions.SINK_PARALLELISM),
    });
  }
}

const O = KafkaOptions;

export class KafkaDynamicTableFactory extends KafkaTableFactoryBase {
  readonly factoryIdentifier = 'kafka' as const;
  readonly description = 'Apache Kafka topics: FLIP-27 source (bounded or unbounded) and Sink V2 sink up to exactly-once.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [O.PROPS_BOOTSTRAP_SERVERS];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return [
      O.TOPIC, O.TOPIC_PATTERN, O.PROPS_GROUP_ID, O.FORMAT, O.KEY_FORMAT, O.VALUE_FORMAT, O.KEY_FIELDS, O.KEY_FIELDS_PREFIX,
      O.VALUE_FIELDS_INCLUDE, O.SCAN_STARTUP_MODE, O.SCAN_STARTUP_SPECIFIC_OFFSETS, O.SCAN_STARTUP_TIMESTAMP_MILLIS,
      O.SCAN_BOUNDED_MODE, O.SCAN_BOUNDED_SPECIFIC_OFFSETS, O.SCAN_BOUNDED_TIMESTAMP_MILLIS, O.SCAN_TOPIC_PARTITION_DISCOVERY,
      O.SCAN_PARALLELISM, O.SINK_PARTITIONER, O.DELIVERY_GUARANTEE, O.TRANSACTIONAL_ID_PREFIX, O.SINK_COMMIT_ON_LOST_TRANSACTION, O.SINK_PARALLELISM,
    ] as ConfigOption<unknown>[];
  }
}

export class UpsertKafkaDynamicTableFactory extends KafkaTableFactoryBase {
  readonly factoryIdentifier = 'upsert-kafka' as const;
  readonly description = 'A compacted Kafka topic as a changelog by PRIMARY KEY: upsert source, upsert/tombstone sink.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [O.PROPS_BOOTSTRAP_SERVERS, O.KEY_FORMAT, O.VALUE_FORMAT] as ConfigOption<unknown>[];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return [
      O.TOPIC, O.TOPIC_PATTERN, O.PROPS_GROUP_ID, O.KEY_FIELDS_PREFIX, O.VALUE_FIELDS_INCLUDE, O.SCAN_BOUNDED_MODE,
      O.SCAN_BOUNDED_SPECIFIC_OFFSETS, O.SCAN_BOUNDED_TIMESTAMP_MILLIS, O.SCAN_TOPIC_PARTITION_DISCOVERY, O.SCAN_PARALLELISM,
      O.SINK_BUFFER_FLUSH_MAX_ROWS, O.SINK_BUFFER_FLUSH_INTERVAL, O.DELIVERY_GUARANTEE, O.TRANSACTIONAL_ID_PREFIX, O.SINK_COMMIT_ON_LOST_TRANSACTION, O.SINK_PARALLELISM,
    ] as ConfigOption<unknown>[];
  }
}
