import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { RowType } from '../../types/logical-type.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { FieldValueError, withField } from '../format-error.js';
import type { JsonDecodeSettings } from '../json/json-to-row.js';
import { asObject, JsonChangelogDecoder, type JsonObject } from '../json/json-changelog-decoder.js';
import type { JsonNode } from '../json/json-tree.js';
import { CANAL_METADATA } from './canal-metadata.js';

export interface CanalDecodeSettings extends JsonDecodeSettings {
  readonly ignoreParseErrors: boolean;
  /** Java regexes matched against the whole meta field, as `Pattern.matches`. */
  readonly databaseInclude: string | undefined;
  readonly tableInclude: string | undefined;
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
export class CanalJsonDecoder extends JsonChangelogDecoder {
  private readonly names: string[];
  private readonly database: RegExp | undefined;
  private readonly table: RegExp | undefined;
  private readonly metadata;

  constructor(
    rowType: RowType,
    settings: CanalDecodeSettings,
    metadataKeys: readonly string[] = [],
  ) {
    super(rowType, settings, settings.ignoreParseErrors, 'canal-json', 'Canal JSON message');
    this.names = rowType.fields.map((f) => f.name);
    this.database = fullMatch(settings.databaseInclude, 'database.include');
    this.table = fullMatch(settings.tableInclude, 'table.include');
    this.metadata = metadataKeys.map((k) => {
      const m = CANAL_METADATA.get(k);
      if (m === undefined) throw new ValidationError(`Unknown canal-json metadata key '${k}'. Available keys: ${[...CANAL_METADATA.keys()].join(', ')}.`);
      return m;
    });
  }

  protected decodeTree(tree: JsonNode): Row[] {
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
