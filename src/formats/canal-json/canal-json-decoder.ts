import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { RowType } from '../../types/logical-type.js';
import type { DeserializationSchema, MessageOrigin } from '../../factories/format.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { FieldValueError, decodeError, withField } from '../format-error.js';
import { utf8Decode } from '../common/utf8.js';
import { containsDecimal, createJsonRowConverter } from '../json/json-to-row.js';
import type { JsonDecodeSettings, JsonRowConverter } from '../json/json-to-row.js';
import { JsonNumberText, readJson } from '../json/json-tree.js';
import type { JsonNode } from '../json/json-tree.js';
import { CANAL_METADATA } from './canal-metadata.js';

export interface CanalDecodeSettings extends JsonDecodeSettings {
  readonly ignoreParseErrors: boolean;
  /** Java regexes matched against the whole meta field, as `Pattern.matches`. */
  readonly databaseInclude: string | undefined;
  readonly tableInclude: string | undefined;
}

type JsonObject = { [key: string]: JsonNode };

function asObject(node: JsonNode | undefined): JsonObject | undefined {
  return node !== null && node !== undefined && typeof node === 'object' && !Array.isArray(node) && !(node instanceof JsonNumberText) ? node : undefined;
}

function fullMatch(pattern: string | undefined, what: string): RegExp | undefined {
  if (pattern === undefined) return undefined;
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch (e) {
    throw new ValidationError(`Invalid regular expression for canal-json '${what}': '${pattern}' (${(e as Error).message}).`);
  }
}

/**
 * `'format' = 'canal-json'` decoder (Flink's CanalJsonDeserializationSchema): INSERT -> +I per `data`
 * element; UPDATE -> -U/+U per element, the -U taking changed fields from `old` and the rest from `data`;
 * DELETE -> -D per element. DDL events (`isDdl`, CREATE) and messages filtered out by
 * `database.include` / `table.include` yield nothing and are not counted as skipped.
 */
export class CanalJsonDecoder implements DeserializationSchema {
  skippedRecords = 0;
  metadataValues: unknown[] = [];
  private readonly convert: JsonRowConverter;
  private readonly scanDecimals: boolean;
  private readonly names: string[];
  private readonly database: RegExp | undefined;
  private readonly table: RegExp | undefined;
  private readonly metadata;

  constructor(
    rowType: RowType,
    private readonly settings: CanalDecodeSettings,
    metadataKeys: readonly string[] = [],
  ) {
    this.convert = createJsonRowConverter(rowType, settings);
    this.scanDecimals = containsDecimal(rowType);
    this.names = rowType.fields.map((f) => f.name);
    this.database = fullMatch(settings.databaseInclude, 'database.include');
    this.table = fullMatch(settings.tableInclude, 'table.include');
    this.metadata = metadataKeys.map((k) => {
      const m = CANAL_METADATA.get(k);
      if (m === undefined) throw new ValidationError(`Unknown canal-json metadata key '${k}'. Available keys: ${[...CANAL_METADATA.keys()].join(', ')}.`);
      return m;
    });
  }

  deserialize(message: Uint8Array, out: Row[], origin?: MessageOrigin): void {
    if (message.length === 0) return;
    const text = utf8Decode(message);
    let rows: Row[];
    try {
      rows = readJson(text, this.scanDecimals, (tree) => this.decodeTree(tree));
    } catch (e) {
      if (this.settings.ignoreParseErrors) {
        this.skippedRecords++;
        return;
      }
      throw decodeError('canal-json', 'Canal JSON message', text, e, origin);
    }
    for (const r of rows) out.push(r);
  }

  private decodeTree(tree: JsonNode): Row[] {
    const root = asObject(tree);
    if (root === undefined) throw new FieldValueError('expected a JSON object.');
    if (this.database !== undefined && !this.database.test(String(root['database'] ?? ''))) return [];
    if (this.table !== undefined && !this.table.test(String(root['table'] ?? ''))) return [];
    const type = root['type'];
    const rows: Row[] = [];
    if (root['isDdl'] !== true && type !== 'CREATE') {
      const data = this.images(root, 'data');
      switch (type) {
        case 'INSERT':
          for (const d of data) rows.push(new Row(RowKind.INSERT, d));
          break;
        case 'DELETE':
          for (const d of data) rows.push(new Row(RowKind.DELETE, d));
          break;
        case 'UPDATE':
          this.updates(root, data, rows);
          break;
        default:
          throw new FieldValueError(`Unknown "type" value ${JSON.stringify(type ?? null)}.`);
      }
    }
    if (this.metadata.length > 0) this.metadataValues = this.metadata.map((m) => m.read(root));
    return rows;
  }

  private updates(root: JsonObject, data: unknown[][], rows: Row[]): void {
    const old = root['old'];
    if (!Array.isArray(old) || old.length !== data.length) {
      throw withField(new FieldValueError(`an UPDATE needs an "old" array with one entry per "data" entry.`), 'old');
    }
    const olds = this.images(root, 'old');
    for (let i = 0; i < data.length; i++) {
      const after = data[i]!;
      const changed = asObject(old[i]) ?? {};
      const before = olds[i]!;
      // Fields absent from "old" did not change: take them from the new image, as Flink does.
      for (let f = 0; f < this.names.length; f++) if (!(this.names[f]! in changed)) before[f] = after[f];
      rows.push(new Row(RowKind.UPDATE_BEFORE, before));
      rows.push(new Row(RowKind.UPDATE_AFTER, after));
    }
  }

  private images(root: JsonObject, name: 'data' | 'old'): unknown[][] {
    const a = root[name];
    if (a === null || a === undefined) return [];
    if (!Array.isArray(a)) throw withField(new FieldValueError('expected an array of row objects.'), name);
    return a.map((node, i) => {
      try {
        return this.convert(node);
      } catch (e) {
        throw withField(withField(e, `[${i}]`), name);
      }
    });
  }
}
