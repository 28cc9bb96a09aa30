import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { RowType } from '../../types/logical-type.js';
import type { DeserializationSchema, MessageOrigin } from '../../factories/format.js';
import { decodeError } from '../format-error.js';
import { utf8Decode } from '../../util/utf8.js';
import { containsDecimal, createJsonRowConverter } from './json-to-row.js';
import type { JsonDecodeSettings, JsonRowConverter } from './json-to-row.js';
import { readJson } from './json-tree.js';
import { createJsonFastDecoder } from './json-fast-decoder.js';
import type { JsonFastDecoder } from './json-fast-decoder.js';
import { checkUtf8, stripUtf8Bom } from '../common/text-bytes.js';

/**
 * `'format' = 'json'` decoder: one JSON object per message into one +I row (Flink's
 * JsonRowDataDeserializationSchema). Numbers of BIGINT and DECIMAL fields are exact: see `readJson`.
 * An empty message (a Kafka tombstone) yields nothing and is not counted as skipped. With
 * `ignore-parse-errors`, as Flink, a value that does not convert is NULL and the row kept; a message that
 * is not JSON or not an object is skipped and counted in `skippedRecords`.
 */
export class JsonRowDecoder implements DeserializationSchema {
  skippedRecords = 0;
  private readonly convert: JsonRowConverter;
  private readonly scanDecimals: boolean;
  private readonly fast: JsonFastDecoder | undefined;

  constructor(
    rowType: RowType,
    private readonly settings: JsonDecodeSettings & { readonly ignoreParseErrors: boolean },
  ) {
    this.convert = createJsonRowConverter(rowType, settings);
    this.scanDecimals = containsDecimal(rowType);
    this.fast = createJsonFastDecoder(rowType, settings);
  }

  deserialize(bytes: Uint8Array, out: Row[], origin?: MessageOrigin): void {
    if (bytes.length === 0) return;
    // As Jackson in Flink: a byte order mark is skipped, bytes that are not UTF-8 are a bad record.
    const message = stripUtf8Bom(bytes);
    try {
      checkUtf8(message);
    } catch (e) {
      if (this.settings.ignoreParseErrors) {
        this.skippedRecords++;
        return;
      }
      throw decodeError('json', 'JSON message', utf8Decode(message), e, origin);
    }
    if (this.fast !== undefined) {
      let fast: unknown[] | undefined;
      try {
        fast = this.fast(message);
      } catch {
        // A value the converter rejects: the general path below fails (or nulls it) with the full context.
      }
      if (fast !== undefined) {
        out.push(new Row(RowKind.INSERT, fast));
        return;
      }
    }
    const text = utf8Decode(message);
    let fields: unknown[];
    try {
      fields = readJson(text, this.scanDecimals, this.convert);
    } catch (e) {
      if (this.settings.ignoreParseErrors) {
        this.skippedRecords++;
        return;
      }
      throw decodeError('json', 'JSON message', text, e, origin);
    }
    out.push(new Row(RowKind.INSERT, fields));
  }
}
