import type { Row } from '../../types/row.js';
import type { RowType } from '../../types/logical-type.js';
import type { SerializationSchema } from '../../factories/format.js';
import { encodeError } from '../format-error.js';
import { utf8Encode } from '../../util/utf8.js';
import { createJsonRowWriter } from './row-to-json.js';
import type { JsonEncodeSettings } from './row-to-json.js';

/**
 * `'format' = 'json'` encoder: a row's fields as one compact JSON object, byte for byte what Flink's
 * JsonRowDataSerializationSchema writes. The row kind is not written (use a changelog format for that).
 */
export class JsonRowEncoder implements SerializationSchema {
  private readonly write: (fields: readonly unknown[]) => string;

  constructor(rowType: RowType, settings: JsonEncodeSettings) {
    this.write = createJsonRowWriter(rowType, settings);
  }

  serialize(row: Row): Uint8Array {
    return utf8Encode(this.writeText(row.fields));
  }

  /** The JSON text of a fields array (for formats that wrap the object in an envelope). */
  writeText(fields: readonly unknown[]): string {
    try {
      return this.write(fields);
    } catch (e) {
      throw encodeError('json', e);
    }
  }
}

