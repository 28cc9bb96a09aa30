// The Kafka connectors: `kafka` and `upsert-kafka` table factories, their FLIP-27 source and Sink V2 sink.
import type { Factory } from '../../factories/factory.js';
import { KafkaDynamicTableFactory, UpsertKafkaDynamicTableFactory } from './kafka-table-factory.js';

export { KafkaDynamicTableFactory, UpsertKafkaDynamicTableFactory } from './kafka-table-factory.js';
export { KafkaOptions } from './kafka-options.js';
export { KafkaDynamicSource, type KafkaDynamicSourceParams } from './kafka-dynamic-source.js';
export { KafkaDynamicSink, type KafkaDynamicSinkParams } from './kafka-dynamic-sink.js';
export { KafkaSource, type KafkaSourceSettings } from './kafka-source.js';
export { KafkaSink, type KafkaSinkSettings } from './kafka-sink.js';

/** The built-in factories of this folder, for the lead's registry. */
export const kafkaConnectorFactories: Factory[] = [new KafkaDynamicTableFactory(), new UpsertKafkaDynamicTableFactory()];
