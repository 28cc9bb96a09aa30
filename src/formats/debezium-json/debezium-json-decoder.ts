import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { RowType } from '../../types/logical-type.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { FieldValueError, withField } from '../format-error.js';
import type { JsonDecodeSettings } from '../json/json-to-row.js';
import { asObject, JsonChangelogDecoder, type JsonObject } from '../json/json-changelog-decoder.js';
import type { JsonNode } from '../json/json-tree.js';
import { DEBEZIUM_METADATA } from './debezium-metadata.js';

export interface DebeziumDecodeSettings extends JsonDecodeSettings {
  readonly schemaInclude: boolean;
  readonly ignoreParseErrors: boolean;
}

const REPLICA_IDENTITY_HINT =
  'if you are using Debezium Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level.';

/**
 * `'format' = 'debezium-json'` decoder (Flink's DebeziumJsonDeserializationSchema): op `c`/`r` -> +I of
 * `after`, `u` -> -U of `before` and +U of `after`, `d` -> -D of `before`. Tombstones (empty messages)
 * and truncate/message events (`t`, `m`) yield nothing. Metadata values of the last message are in
 * `metadataValues`, in the order of `metadataKeys`.
 */
export class DebeziumJsonDecoder extends JsonChangelogDecoder {
  private readonly metadata;

  constructor(
    rowType: RowType,
    private readonly settings: DebeziumDecodeSettings,
    metadataKeys: readonly string[] = [],
  ) {
    super(rowType, settings, settings.ignoreParseErrors, 'debezium-json', 'Debezium JSON message');
    this.metadata = metadataKeys.map((k) => {
      const m = DEBEZIUM_METADATA.get(k);
      if (m === undefined) throw new ValidationError(`Unknown debezium-json metadata key '${k}'. Available keys: ${[...DEBEZIUM_METADATA.keys()].join(', ')}.`);
      return m;
    });
  }

  protected decodeTree(tree: JsonNode): Row[] {
    const root = asObject(tree);
    if (root === undefined) throw new FieldValueError('expected a JSON object.');
    let payload: JsonObject | undefined = root;
    if (this.settings.schemaInclude) {
      payload = asObject(root['payload']);
      if (payload === undefined) {
        throw new FieldValueError(`the message has no "payload" object, but 'debezium-json.schema-include' is true.`);
      }
    } else if (root['op'] === undefined && root['payload'] !== undefined && root['schema'] !== undefined) {
      throw new FieldValueError(`the message carries a Kafka Connect schema; set 'debezium-json.schema-include' = 'true'.`);
    }
    const op = payload['op'];
    const rows: Row[] = [];
    switch (op) {
      case 'c':
      case 'r':
        rows.push(new Row(RowKind.INSERT, this.image(payload, 'after')));
        break;
      case 'u': {
        if (payload['before'] === null || payload['before'] === undefined) {
          throw new FieldValueError(`The "before" field of UPDATE message is null, ${REPLICA_IDENTITY_HINT}`);
        }
        rows.push(new Row(RowKind.UPDATE_BEFORE, this.image(payload, 'before')));
        rows.push(new Row(RowKind.UPDATE_AFTER, this.image(payload, 'after')));
        break;
      }
      case 'd': {
        if (payload['before'] === null || payload['before'] === undefined) {
          throw new FieldValueError(`The "before" field of DELETE message is null, ${REPLICA_IDENTITY_HINT}`);
        }
        rows.push(new Row(RowKind.DELETE, this.image(payload, 'before')));
        break;
      }
      case 't':
      case 'm':
        break;
      default:
        throw new FieldValueError(`Unknown "op" value ${JSON.stringify(op ?? null)}.`);
    }
    if (this.metadata.length > 0) this.metadataValues = this.metadata.map((m) => m.read(root, payload));
    return rows;
  }

  private image(payload: JsonObject, name: 'before' | 'after'): unknown[] {
    try {
      return this.convert(payload[name] ?? null);
    } catch (e) {
      throw withField(e, name);
    }
  }
}
