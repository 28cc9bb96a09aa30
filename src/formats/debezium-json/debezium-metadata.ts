import { DataTypes } from '../../types/data-types.js';
import type { LogicalType } from '../../types/logical-type.js';
import { JsonNumberText, stringifyJsonNode } from '../json/json-tree.js';
import type { JsonNode } from '../json/json-tree.js';

/** One readable metadata key of debezium-json: its type and how to read it from the message. */
interface DebeziumMetadata {
  readonly type: LogicalType;
  /** `root` is the whole message, `payload` the envelope with op/before/after/source/ts_ms. */
  readonly read: (root: JsonNode, payload: { [key: string]: JsonNode }) => unknown;
}

function field(node: JsonNode | undefined, name: string): JsonNode | undefined {
  return node !== null && typeof node === 'object' && !Array.isArray(node) && !(node instanceof JsonNumberText) ? node[name] : undefined;
}

function text(node: JsonNode | undefined): string | null {
  if (node === undefined || node === null) return null;
  return typeof node === 'string' ? node : stringifyJsonNode(node);
}

function epochMs(node: JsonNode | undefined): number | null {
  if (typeof node === 'number') return node;
  if (node instanceof JsonNumberText) return Number(node.text);
  return null;
}

/** Flink's DebeziumJsonDecodingFormat.ReadableMetadata, in Flink's order. */
export const DEBEZIUM_METADATA: ReadonlyMap<string, DebeziumMetadata> = new Map<string, DebeziumMetadata>([
  ['schema', { type: DataTypes.STRING(), read: (root) => text(field(root, 'schema')) }],
  ['ingestion-timestamp', { type: DataTypes.TIMESTAMP_LTZ(3), read: (_r, p) => epochMs(p['ts_ms']) }],
  ['source.timestamp', { type: DataTypes.TIMESTAMP_LTZ(3), read: (_r, p) => epochMs(field(p['source'], 'ts_ms')) }],
  ['source.database', { type: DataTypes.STRING(), read: (_r, p) => text(field(p['source'], 'db')) }],
  ['source.schema', { type: DataTypes.STRING(), read: (_r, p) => text(field(p['source'], 'schema')) }],
  ['source.table', { type: DataTypes.STRING(), read: (_r, p) => text(field(p['source'], 'table')) }],
  [
    'source.properties',
    {
      type: DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING()),
      read: (_r, p) => {
        const source = p['source'];
        if (source === null || source === undefined || typeof source !== 'object' || Array.isArray(source) || source instanceof JsonNumberText) return null;
        const m = new Map<string, string | null>();
        for (const k of Object.keys(source)) m.set(k, text(source[k]));
        return m;
      },
    },
  ],
]);
