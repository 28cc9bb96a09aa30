import { DataTypes } from '../../types/data-types.js';
import type { LogicalType } from '../../types/logical-type.js';
import { JsonNumberText, stringifyJsonNode } from '../json/json-tree.js';
import type { JsonNode } from '../json/json-tree.js';

interface CanalMetadata {
  readonly type: LogicalType;
  readonly read: (root: { [key: string]: JsonNode }) => unknown;
}

function text(node: JsonNode | undefined): string | null {
  if (node === undefined || node === null) return null;
  return typeof node === 'string' ? node : stringifyJsonNode(node);
}

function num(node: JsonNode | undefined): number | null {
  if (typeof node === 'number') return node;
  if (node instanceof JsonNumberText) return Number(node.text);
  if (typeof node === 'string' && /^-?\d+$/.test(node)) return Number(node);
  return null;
}

/** Flink's CanalJsonDecodingFormat.ReadableMetadata, in Flink's order. */
export const CANAL_METADATA: ReadonlyMap<string, CanalMetadata> = new Map<string, CanalMetadata>([
  ['database', { type: DataTypes.STRING(), read: (r) => text(r['database']) }],
  ['table', { type: DataTypes.STRING(), read: (r) => text(r['table']) }],
  [
    'sql-type',
    {
      type: DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()),
      read: (r) => {
        const o = r['sqlType'];
        if (o === null || o === undefined || typeof o !== 'object' || Array.isArray(o) || o instanceof JsonNumberText) return null;
        return new Map(Object.keys(o).map((k) => [k, num(o[k])]));
      },
    },
  ],
  [
    'pk-names',
    {
      type: DataTypes.ARRAY(DataTypes.STRING()),
      read: (r) => {
        const a = r['pkNames'];
        return Array.isArray(a) ? a.map(text) : null;
      },
    },
  ],
  ['ingestion-timestamp', { type: DataTypes.TIMESTAMP_LTZ(3), read: (r) => num(r['ts']) }],
  ['event-timestamp', { type: DataTypes.TIMESTAMP_LTZ(3), read: (r) => num(r['es']) }],
]);
