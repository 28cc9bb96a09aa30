import type { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import { DataTypes, FIELD } from '../../types/data-types.js';
import type { RowType } from '../../types/logical-type.js';
import type { SerializationSchema } from '../../factories/format.js';
import { encodeError } from '../format-error.js';
import { utf8Encode } from '../../util/utf8.js';
import { createJsonRowWriter } from '../json/row-to-json.js';
import type { JsonEncodeSettings } from '../json/row-to-json.js';

/**
 * `'format' = 'canal-json'` encoder (Flink's CanalJsonSerializationSchema): +I and +U become
 * `{"data":[{...}],"type":"INSERT"}`, -U and -D become `{"data":[{...}],"type":"DELETE"}`.
 */
export class CanalJsonEncoder implements SerializationSchema {
  private readonly write: (fields: readonly unknown[]) => string;

  constructor(rowType: RowType, settings: JsonEncodeSettings) {
    const envelope = DataTypes.ROW(FIELD('data', DataTypes.ARRAY(rowType)), FIELD('type', DataTypes.STRING()));
    this.write = createJsonRowWriter(envelope, settings);
  }

  serialize(row: Row): Uint8Array {
    const insert = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
    try {
      return utf8Encode(this.write([[row.fields], insert ? 'INSERT' : 'DELETE']));
    } catch (e) {
      throw encodeError('canal-json', e);
    }
  }
}
