import { builtinCatalogFactories } from '../catalog/catalog-factories.js';
import { builtinConnectorFactories } from '../connectors/builtin.js';
import type { Factory } from '../factories/factory.js';
import { LazyFactory } from '../factories/lazy-factory.js';
import { AvroFormatFactory } from '../formats/avro/avro-format-factory.js';
import { CanalJsonFormatFactory } from '../formats/canal-json/canal-json-format-factory.js';
import { CsvFormatFactory } from '../formats/csv/csv-format-factory.js';
import { DebeziumJsonFormatFactory } from '../formats/debezium-json/debezium-json-format-factory.js';
import { JsonFormatFactory } from '../formats/json/json-format-factory.js';
import { RawFormatFactory } from '../formats/raw/raw-format-factory.js';

/**
 * Every connector, format and catalog factory Sluice ships, registered in each new session. The ones
 * built on heavy client libraries (kafkajs, gRPC for Pravega, Apache Arrow) are registered lazily and
 * loaded the first time a statement uses them, so `sluice` starts in a blink (see LazyFactory).
 */
export function builtinFactories(): Factory[] {
  return [
    ...builtinConnectorFactories,
    new JsonFormatFactory(),
    new CsvFormatFactory(),
    new RawFormatFactory(),
    new DebeziumJsonFormatFactory(),
    new CanalJsonFormatFactory(),
    new AvroFormatFactory(),
    new LazyFactory({
      identifier: 'kafka',
      description: 'Apache Kafka topics: FLIP-27 source (bounded or unbounded) and Sink V2 sink up to exactly-once.',
      kinds: ['source', 'sink'],
      load: async () => new (await import('../connectors/kafka/kafka-table-factory.js')).KafkaDynamicTableFactory(),
    }),
    new LazyFactory({
      identifier: 'upsert-kafka',
      description: 'A compacted Kafka topic as a changelog by PRIMARY KEY: upsert source, upsert/tombstone sink.',
      kinds: ['source', 'sink'],
      load: async () => new (await import('../connectors/kafka/kafka-table-factory.js')).UpsertKafkaDynamicTableFactory(),
    }),
    new LazyFactory({
      identifier: 'pravega',
      description: 'Pravega streams: segment-aware FLIP-27 source, transactional exactly-once sink.',
      kinds: ['source', 'sink'],
      load: async () => new (await import('../connectors/pravega/pravega-table-factory.js')).PravegaTableFactory(),
    }),
    new LazyFactory({
      identifier: 'avro-confluent',
      description: "Avro in Confluent's wire format with a schema registry (Confluent or Apicurio's ccompat API); insert-only.",
      kinds: ['decode', 'encode'],
      load: async () => new (await import('../formats/avro-confluent/avro-confluent-format-factory.js')).AvroConfluentFormatFactory(),
    }),
    new LazyFactory({
      identifier: 'debezium-avro-confluent',
      description: 'Debezium change events in Avro with a schema registry; produces and accepts +I, -U, +U, -D.',
      kinds: ['decode', 'encode'],
      load: async () => new (await import('../formats/avro-confluent/debezium-avro-confluent-format-factory.js')).DebeziumAvroConfluentFormatFactory(),
    }),
    new LazyFactory({
      identifier: 'pravega-registry',
      description: "Avro or JSON events in the Pravega Schema Registry's encoding (encoding id header); insert-only.",
      kinds: ['decode', 'encode'],
      load: async () => new (await import('../formats/pravega-registry/pravega-registry-format-factory.js')).PravegaRegistryFormatFactory(),
    }),
    new LazyFactory({
      identifier: 'arrow',
      description: 'Apache Arrow IPC stream or file (bulk, for the filesystem connector); insert-only.',
      kinds: ['bulk-format'],
      load: async () => new (await import('../formats/arrow/arrow-format-factory.js')).ArrowFormatFactory(),
    }),
    ...builtinCatalogFactories,
  ];
}
