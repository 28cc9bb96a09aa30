import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DeserializationSchema, SerializationSchema } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import { RegistryAvroFormatFactory } from './avro-confluent-format-factory.js';
import { DebeziumAvroConfluentDecoder, DebeziumAvroConfluentEncoder, debeziumEnvelope } from './debezium-avro-confluent-codec.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';

/**
 * `'format' = 'debezium-avro-confluent'`: Debezium change events written by Kafka Connect's Avro converter
 * (Confluent wire format, schema registry) as a changelog (Flink's DebeziumAvroFormatFactory). Same
 * options as `avro-confluent`.
 */
export class DebeziumAvroConfluentFormatFactory extends RegistryAvroFormatFactory {
  readonly factoryIdentifier = 'debezium-avro-confluent';
  readonly description = 'Debezium change events in Avro with a schema registry; produces and accepts +I, -U, +U, -D.';

  protected changelogMode(): ChangelogMode {
    return ChangelogMode.all();
  }

  protected messageType(physicalType: RowType): RowType {
    return debeziumEnvelope(physicalType);
  }

  protected decoder(physicalType: RowType, client: SchemaRegistryClient): DeserializationSchema {
    return new DebeziumAvroConfluentDecoder(physicalType, client);
  }

  protected encoder(physicalType: RowType, client: SchemaRegistryClient, subject: string, schemaText: string): SerializationSchema {
    return new DebeziumAvroConfluentEncoder(physicalType, client, subject, schemaText);
  }
}
