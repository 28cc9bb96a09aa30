import type { PravegaRegistryClient } from '../../connectors/pravega/registry/registry-client.js';
import { PravegaRegistryError } from '../../connectors/pravega/registry/registry-error.js';
import type { GroupProperties, SchemaWithVersion, VersionInfo } from '../../connectors/pravega/registry/registry-model.js';
import { ConnectorError } from '../../errors/sluice-error.js';
import type { SerializationSchema } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import type { Row } from '../../types/row.js';
import { AvroRowEncoder } from '../avro/avro-row-codec.js';
import { avroLayout, parseAvroSchema } from '../avro-confluent/avro-schema-model.js';
import { encodeError } from '../format-error.js';
import { JsonRowEncoder } from '../json/json-row-encoder.js';
import type { JsonEncodeSettings } from '../json/row-to-json.js';
import type { RegistryFormat } from './pravega-registry-options.js';
import { avroRecordNameOf, schemaOfRowType, type RegistrySchemaText } from './registry-schema-types.js';
import { framed, registryHeader } from './registry-wire.js';

/**
 * `'format' = 'pravega-registry'` encoder (Flink's PravegaRegistryRowDataSerializationSchema): every event is the
 * registry's header (protocol byte, encoding id) and the row in Avro binary or JSON text, no codec.
 *
 * `open` (awaited once by the connector before the first row) finds the schema to write with: the group's newest
 * schema when it writes the table's rows byte for byte (so events keep the record name other applications registered),
 * otherwise the schema derived from the table, registered under the group's compatibility rule. A refusal names the
 * rule. `serialize` never does I/O.
 */
export class PravegaRegistryEncoder implements SerializationSchema {
  private header: Uint8Array | undefined;
  private readonly body: { serialize(row: Row): Uint8Array };

  constructor(
    private readonly rowType: RowType,
    private readonly registry: PravegaRegistryClient,
    private readonly group: string,
    private readonly format: RegistryFormat,
    private readonly where: string,
    jsonSettings: JsonEncodeSettings,
  ) {
    this.body = format === 'Avro' ? new AvroRowEncoder(rowType, 'micros') : new JsonRowEncoder(rowType, jsonSettings);
  }

  async open(): Promise<void> {
    if (this.header !== undefined) return;
    let props: GroupProperties;
    try {
      props = await this.registry.getGroupProperties(this.group);
    } catch (e) {
      if (e instanceof PravegaRegistryError && e.status === 404) {
        throw new ConnectorError(
          `Cannot write to ${this.where}: the schema registry has no group '${this.group}' ('pravega-registry.group-id'). ` +
            'Create the table in a Pravega catalog, or create the group with the registry first.',
        );
      }
      throw new ConnectorError(`Cannot write to ${this.where}: ${(e as Error).message}`, { cause: e });
    }
    if (props.serializationFormat !== this.format && props.serializationFormat !== 'Any') {
      throw new ConnectorError(
        `Cannot write ${this.format} events to ${this.where}: its group holds ${props.serializationFormat} schemas. Set 'pravega-registry.format' = '${props.serializationFormat}'.`,
      );
    }
    try {
      const version = await this.writerVersion();
      const id = await this.registry.getEncodingId(this.group, version, '');
      this.header = registryHeader(id);
    } catch (e) {
      if (e instanceof ConnectorError && !(e instanceof PravegaRegistryError)) throw e;
      throw new ConnectorError(`Cannot write to ${this.where}: ${(e as Error).message}`, { cause: e });
    }
  }

  serialize(row: Row): Uint8Array {
    const header = this.header;
    if (header === undefined) {
      throw new ConnectorError(`The 'pravega-registry' encoder of ${this.where} was used before open(): the connector must open it before writing.`);
    }
    try {
      return framed(header, this.body.serialize(row));
    } catch (e) {
      throw encodeError('pravega-registry', e);
    }
  }

  /** The version to write with: the newest registered one when it matches the table, else the derived one, registered. */
  private async writerVersion(): Promise<VersionInfo> {
    const latest = await this.registry.getLatestSchema(this.group);
    const derived = schemaOfRowType(this.rowType, this.format, avroRecordNameOf(latest?.schemaInfo));
    if (latest !== undefined && sameLayout(latest, derived)) return latest.versionInfo;
    return this.registry.addSchema(this.group, {
      type: this.format === 'Json' && latest !== undefined ? latest.schemaInfo.type : derived.type,
      serializationFormat: this.format,
      schema: derived.schema,
    });
  }
}

function sameLayout(latest: SchemaWithVersion, derived: RegistrySchemaText): boolean {
  if (latest.schemaInfo.serializationFormat !== derived.serializationFormat) return false;
  if (derived.serializationFormat === 'Json') return normalJson(latest.schemaInfo.schema) === normalJson(derived.schema);
  try {
    return avroLayout(parseAvroSchema(latest.schemaInfo.schema)) === avroLayout(parseAvroSchema(derived.schema));
  } catch {
    return false;
  }
}

function normalJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}
