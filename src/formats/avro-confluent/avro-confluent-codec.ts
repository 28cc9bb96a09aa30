import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { RowType } from '../../types/logical-type.js';
import type { DeserializationSchema, MessageOrigin, SerializationSchema } from '../../factories/format.js';
import { ConnectorError } from '../../errors/sluice-error.js';
import { FieldValueError, decodeError, encodeError } from '../format-error.js';
import { AvroReader } from '../avro/avro-binary.js';
import { AvroRowEncoder, type Read } from '../avro/avro-row-codec.js';
import { avroSchemaOf } from '../avro/avro-schema.js';
import { AvroSchemaParseError, parseAvroSchema } from './avro-schema-model.js';
import { resolvingReader } from './avro-resolving-reader.js';
import { HEADER_SIZE, frame, readSchemaId } from './confluent-wire.js';

/** The two registry calls the codecs make (SchemaRegistryClient; a stub in unit tests). */
export interface SchemaLookup {
  /** The Avro schema text of `id`. Blocks on the first call per id; cached after. */
  getSchemaById(id: number): string;
  /** The id of `schema` registered under `subject`. Blocks on the first call; cached after. */
  register(subject: string, schema: string): number;
}

const FORMAT = 'avro-confluent';

/**
 * `'format' = 'avro-confluent'` decoder (Flink's ConfluentRegistryAvroDeserializationSchema): reads the
 * schema id of each message, fetches that writer schema once, and reads the body resolved against the
 * table's schema. Registry failures are not bad records: they surface as ConnectorError.
 */
export class AvroConfluentDecoder implements DeserializationSchema {
  readonly skippedRecords = 0;
  private readonly readers = new Map<number, Read>();
  private readonly rowType: RowType;

  constructor(
    rowType: RowType,
    private readonly registry: SchemaLookup,
  ) {
    avroSchemaOf(rowType);
    // The top-level record is never NULL, as the table's physical row type is NOT NULL in Flink.
    this.rowType = { ...rowType, nullable: false };
  }

  deserialize(message: Uint8Array, out: Row[], origin?: MessageOrigin): void {
    if (message.length === 0) return;
    let fields: unknown[];
    try {
      const read = this.readerFor(readSchemaId(message));
      const r = new AvroReader(message.subarray(HEADER_SIZE));
      fields = read(r) as unknown[];
      if (r.remaining !== 0) throw new FieldValueError(`${r.remaining} bytes left after the record; the data does not match its writer's schema.`);
    } catch (e) {
      if (e instanceof ConnectorError) throw e;
      throw decodeError(FORMAT, 'Confluent Avro message', Buffer.from(message.subarray(0, 64)).toString('hex'), e, origin);
    }
    out.push(new Row(RowKind.INSERT, fields));
  }

  private readerFor(id: number): Read {
    let read = this.readers.get(id);
    if (read) return read;
    const text = this.registry.getSchemaById(id);
    try {
      read = resolvingReader(parseAvroSchema(text), this.rowType);
    } catch (e) {
      if (e instanceof AvroSchemaParseError) throw new ConnectorError(`The schema with id ${id} is not a valid Avro schema: ${e.message}`);
      if (e instanceof FieldValueError) {
        const field = e.path.length > 0 ? ` field '${e.path.join('.')}':` : '';
        throw new ConnectorError(`The writer schema with id ${id} cannot be read as the table's schema:${field} ${e.message}`, { cause: e });
      }
      throw e;
    }
    this.readers.set(id, read);
    return read;
  }
}

/**
 * `'format' = 'avro-confluent'` encoder (Flink's ConfluentRegistryAvroSerializationSchema): registers its
 * schema under `subject` on the first row and frames every row with the returned id.
 */
export class AvroConfluentEncoder implements SerializationSchema {
  private readonly body: AvroRowEncoder;
  private schemaId: number | undefined;

  constructor(
    rowType: RowType,
    private readonly registry: SchemaLookup,
    private readonly subject: string,
    /** The schema text to register: the user's `schema` option, or the one derived from the table. */
    private readonly schemaText: string,
  ) {
    this.body = new AvroRowEncoder(rowType);
  }

  serialize(row: Row): Uint8Array {
    this.schemaId ??= this.registry.register(this.subject, this.schemaText);
    try {
      return frame(this.schemaId, this.body.serialize(row));
    } catch (e) {
      throw encodeError(FORMAT, e);
    }
  }
}
