import type { DeserializationSchema, MessageOrigin } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import type { Row } from '../../types/row.js';
import { utf8Decode } from '../../util/utf8.js';
import { decodeError } from '../format-error.js';
import { containsDecimal, createJsonRowConverter } from './json-to-row.js';
import type { JsonDecodeSettings, JsonRowConverter } from './json-to-row.js';
import { JsonNumberText, readJson } from './json-tree.js';
import type { JsonNode } from './json-tree.js';
import { checkUtf8, stripUtf8Bom } from '../common/text-bytes.js';

export type JsonObject = { [key: string]: JsonNode };

export function asObject(node: JsonNode | undefined): JsonObject | undefined {
  return node !== null && node !== undefined && typeof node === 'object' && !Array.isArray(node) && !(node instanceof JsonNumberText) ? node : undefined;
}

/**
 * What debezium-json and canal-json share: a JSON envelope per message turned into changelog rows,
 * bad messages skipped and counted or failed with the message's origin. Subclasses read the envelope.
 */
export abstract class JsonChangelogDecoder implements DeserializationSchema {
  skippedRecords = 0;
  metadataValues: unknown[] = [];
  protected readonly convert: JsonRowConverter;
  private readonly scanDecimals: boolean;

  protected constructor(
    rowType: RowType,
    settings: JsonDecodeSettings,
    private readonly ignoreParseErrors: boolean,
    /** `debezium-json`, named in errors. */
    private readonly format: string,
    /** `Debezium JSON message`, named in errors. */
    private readonly what: string,
  ) {
    // Flink's debezium and canal decoders wrap a JSON row decoder built with the same ignore-parse-errors.
    this.convert = createJsonRowConverter(rowType, { ...settings, ignoreParseErrors });
    this.scanDecimals = containsDecimal(rowType);
  }

  deserialize(bytes: Uint8Array, out: Row[], origin?: MessageOrigin): void {
    if (bytes.length === 0) return;
    // As Jackson in Flink: a byte order mark is skipped, bytes that are not UTF-8 are a bad record.
    const message = stripUtf8Bom(bytes);
    const text = utf8Decode(message);
    let rows: Row[];
    try {
      checkUtf8(message);
      rows = readJson(text, this.scanDecimals, (tree) => this.decodeTree(tree));
    } catch (e) {
      if (this.ignoreParseErrors) {
        this.skippedRecords++;
        return;
      }
      throw decodeError(this.format, this.what, text, e, origin);
    }
    for (const r of rows) out.push(r);
  }

  /** The rows of one parsed envelope (none to skip it); throws FieldValueError for a malformed one. */
  protected abstract decodeTree(tree: JsonNode): Row[];
}
