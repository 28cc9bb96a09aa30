import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import { DataTypes, FIELD } from '../../types/data-types.js';
import type { RowType } from '../../types/logical-type.js';
import type { DeserializationSchema, MessageOrigin, SerializationSchema } from '../../factories/format.js';
import { FieldValueError, decodeError } from '../format-error.js';
import { AvroConfluentDecoder, AvroConfluentEncoder, type SchemaLookup } from './avro-confluent-codec.js';

const FORMAT = 'debezium-avro-confluent';
const REPLICA_IDENTITY_HINT = 'if you are using Debezium Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level.';

/**
 * The part of a Debezium change event the format reads and writes (Flink's DebeziumAvroDeserializationSchema):
 * `before` and `after` images of the table row and `op`. Debezium's other fields (source, ts_ms, ...) are
 * skipped by schema resolution.
 */
export function debeziumEnvelope(rowType: RowType): RowType {
  const image: RowType = { ...rowType, nullable: true };
  return DataTypes.ROW(FIELD('before', image), FIELD('after', image), FIELD('op', DataTypes.STRING()));
}

/**
 * `'format' = 'debezium-avro-confluent'` decoder: op `c`/`r` -> +I of `after`, `u` -> -U of `before` and +U
 * of `after`, `d` -> -D of `before`; tombstones (empty messages) and `t`/`m` events yield nothing.
 */
export class DebeziumAvroConfluentDecoder implements DeserializationSchema {
  readonly skippedRecords = 0;
  private readonly envelope: AvroConfluentDecoder;
  private readonly scratch: Row[] = [];

  constructor(rowType: RowType, registry: SchemaLookup) {
    this.envelope = new AvroConfluentDecoder(debeziumEnvelope(rowType), registry);
  }

  deserialize(message: Uint8Array, out: Row[], origin?: MessageOrigin): void {
    this.scratch.length = 0;
    this.envelope.deserialize(message, this.scratch, origin);
    const event = this.scratch[0];
    if (event === undefined) return;
    const [before, after, op] = event.fields as [unknown[] | null, unknown[] | null, string | null];
    try {
      switch (op) {
        case 'c':
        case 'r':
          out.push(new Row(RowKind.INSERT, required(after, 'after', 'CREATE')));
          break;
        case 'u':
          out.push(new Row(RowKind.UPDATE_BEFORE, required(before, 'before', 'UPDATE')), new Row(RowKind.UPDATE_AFTER, required(after, 'after', 'UPDATE')));
          break;
        case 'd':
          out.push(new Row(RowKind.DELETE, required(before, 'before', 'DELETE')));
          break;
        case 't':
        case 'm':
          break;
        default:
          throw new FieldValueError(`Unknown "op" value ${JSON.stringify(op)}.`);
      }
    } catch (e) {
      throw decodeError(FORMAT, 'Debezium Avro message', Buffer.from(message.subarray(0, 64)).toString('hex'), e, origin);
    }
  }
}

function required(image: unknown[] | null, name: 'before' | 'after', what: string): unknown[] {
  if (image === null) throw new FieldValueError(`The "${name}" field of ${what} message is null, ${name === 'before' ? REPLICA_IDENTITY_HINT : 'which Debezium never writes.'}`);
  return image;
}

/**
 * `'format' = 'debezium-avro-confluent'` encoder (Flink's DebeziumAvroSerializationSchema): +I and +U
 * become `{before: null, after: row, op: "c"}`, -U and -D `{before: row, after: null, op: "d"}`.
 */
export class DebeziumAvroConfluentEncoder implements SerializationSchema {
  private readonly envelope: AvroConfluentEncoder;

  constructor(rowType: RowType, registry: SchemaLookup, subject: string, schemaText: string) {
    this.envelope = new AvroConfluentEncoder(debeziumEnvelope(rowType), registry, subject, schemaText);
  }

  serialize(row: Row): Uint8Array {
    const insert = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
    return this.envelope.serialize(new Row(RowKind.INSERT, insert ? [null, row.fields, 'c'] : [row.fields, null, 'd']));
  }
}
