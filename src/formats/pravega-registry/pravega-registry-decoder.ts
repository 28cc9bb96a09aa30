import { gunzipSync } from 'node:zlib';
import type { PravegaRegistryClient } from '../../connectors/pravega/registry/registry-client.js';
import type { EncodingInfo } from '../../connectors/pravega/registry/registry-model.js';
import { ConnectorError } from '../../errors/sluice-error.js';
import type { DeserializationSchema, MessageOrigin } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import { AvroReader } from '../avro/avro-binary.js';
import type { Read } from '../avro/avro-row-codec.js';
import { resolvingReader } from '../avro-confluent/avro-resolving-reader.js';
import { AvroSchemaParseError, parseAvroSchema } from '../avro-confluent/avro-schema-model.js';
import { FieldValueError, decodeError } from '../format-error.js';
import { JsonRowDecoder } from '../json/json-row-decoder.js';
import type { JsonDecodeSettings } from '../json/json-to-row.js';
import { HEADER_SIZE, encodingIdOf } from './registry-wire.js';

const FORMAT = 'pravega-registry';

/** How the events of one encoding id become rows: the writer schema's reader behind the codec. */
type EventReader = (body: Uint8Array, out: Row[], origin: MessageOrigin | undefined) => void;

/** The codec names the registry's Java serializers use. */
const GZIP = 'application/x-gzip';

/**
 * `'format' = 'pravega-registry'` decoder (Flink's PravegaRegistryRowDataDeserializationSchema): each event starts
 * with the registry's header; its encoding id names the writer's schema and codec, which are fetched once per id, and
 * the body is read into the table's row type (Avro by schema resolution, JSON by field name).
 *
 * Lookups never block the task: `prepare` resolves the encoding ids of a batch of events asynchronously before the
 * connector hands them to `deserialize`, which then only reads the cache. An id still unknown there is a connector
 * that did not call `prepare`, reported as such.
 */
export class PravegaRegistryDecoder implements DeserializationSchema {
  private readonly readers = new Map<number, EventReader>();
  private readonly resolving = new Map<number, Promise<void>>();
  private readonly json: JsonRowDecoder;

  constructor(
    private readonly rowType: RowType,
    private readonly registry: PravegaRegistryClient,
    private readonly group: string,
    private readonly where: string,
    jsonSettings: JsonDecodeSettings & { readonly ignoreParseErrors: boolean },
  ) {
    this.json = new JsonRowDecoder(rowType, jsonSettings);
  }

  get skippedRecords(): number {
    return this.json.skippedRecords;
  }

  prepare(messages: readonly Uint8Array[]): Promise<void> | undefined {
    let waits: Promise<void>[] | undefined;
    for (const m of messages) {
      const id = encodingIdOf(m);
      if (id === undefined || this.readers.has(id)) continue;
      let p = this.resolving.get(id);
      if (p === undefined) {
        p = this.resolve(id).finally(() => this.resolving.delete(id));
        this.resolving.set(id, p);
        (waits ??= []).push(p);
      } else if (!waits?.includes(p)) (waits ??= []).push(p);
    }
    return waits === undefined ? undefined : Promise.all(waits).then(() => undefined);
  }

  deserialize(message: Uint8Array, out: Row[], origin?: MessageOrigin): void {
    if (message.length === 0) return;
    const id = encodingIdOf(message);
    if (id === undefined) {
      const e = new FieldValueError(`the event does not start with the registry's header (protocol byte 0x01 and a 4-byte encoding id).`);
      throw decodeError(FORMAT, 'registry event', Buffer.from(message.subarray(0, 64)).toString('hex'), e, origin);
    }
    const read = this.readers.get(id);
    if (read === undefined) {
      throw new ConnectorError(
        `The 'pravega-registry' format met encoding id ${id} of group '${this.group}' before it was looked up: ` +
          `the connector must resolve registry lookups before decoding (the 'pravega' connector does).`,
      );
    }
    read(message.subarray(HEADER_SIZE), out, origin);
  }

  private async resolve(id: number): Promise<void> {
    let info: EncodingInfo;
    try {
      info = await this.registry.getEncodingInfo(this.group, id);
    } catch (e) {
      throw new ConnectorError(`Cannot read an event of ${this.where}: looking up its encoding id ${id} failed. ${(e as Error).message}`, { cause: e });
    }
    this.readers.set(id, this.readerFor(id, info));
  }

  private readerFor(id: number, info: EncodingInfo): EventReader {
    const codec = info.codecType.name;
    let decode: (body: Uint8Array) => Uint8Array;
    if (codec === '') decode = (b) => b;
    else if (codec === GZIP) decode = (b) => gunzipSync(b);
    else throw new ConnectorError(`Encoding id ${id} of ${this.where} uses codec '${codec}'; Sluice reads events without a codec or with '${GZIP}'.`);
    const format = info.schemaInfo.serializationFormat;
    if (format === 'Json') {
      return (body, out, origin) => this.json.deserialize(decode(body), out, origin);
    }
    if (format !== 'Avro') {
      throw new ConnectorError(`Encoding id ${id} of ${this.where} is ${format}; the 'pravega-registry' format reads Avro and Json events.`);
    }
    let read: Read;
    try {
      read = resolvingReader(parseAvroSchema(info.schemaInfo.schema), { ...this.rowType, nullable: false });
    } catch (e) {
      if (e instanceof AvroSchemaParseError) throw new ConnectorError(`The writer schema of encoding id ${id} of ${this.where} is not valid Avro: ${e.message}`);
      if (e instanceof FieldValueError) {
        const field = e.path.length > 0 ? ` field '${e.path.join('.')}':` : '';
        throw new ConnectorError(`The writer schema of encoding id ${id} of ${this.where} (version ${info.versionInfo.version} of type '${info.versionInfo.type}') cannot be read as the table's schema:${field} ${e.message}`, {
          cause: e,
        });
      }
      throw e;
    }
    return (body, out, origin) => {
      let fields: unknown[];
      const bytes = decode(body);
      try {
        const r = new AvroReader(bytes);
        fields = read(r) as unknown[];
        if (r.remaining !== 0) throw new FieldValueError(`${r.remaining} bytes left after the record; the data does not match its writer's schema.`);
      } catch (e) {
        throw decodeError(FORMAT, 'Avro event', Buffer.from(bytes.subarray(0, 64)).toString('hex'), e, origin);
      }
      out.push(new Row(RowKind.INSERT, fields));
    };
  }
}
