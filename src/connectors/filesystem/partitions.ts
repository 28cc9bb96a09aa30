import { readdirSync } from 'node:fs';
import { followedKindSync } from './followed-entry.js';
import { join, resolve } from 'node:path';
import { ValidationError } from '../../errors/sluice-error.js';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';
import { formatDate, formatTimestamp, parseDate, parseTimestampValue } from '../../types/values/temporal.js';
import type { TimestampValue } from '../../types/values/precise-timestamp.js';

/** Characters Hive (and Flink's PartitionPathUtils) escape in partition folder names as `%XX`. */
const ESCAPED = new Set(['"', '#', '%', "'", '*', '/', ':', '=', '?', '\\', '\u007f', '{', '[', ']', '^']);

export function escapePathName(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    out += c < 0x20 || ESCAPED.has(ch) ? `%${c.toString(16).toUpperCase().padStart(2, '0')}` : ch;
  }
  return out;
}

export function unescapePathName(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** A partition value as folder text (`dt=2024-01-01`); null or empty becomes the default name. */
export function partitionValueToString(value: unknown, type: LogicalType, defaultName: string): string {
  if (value === null || value === undefined) return defaultName;
  let s: string;
  switch (type.kind) {
    case 'DATE':
      s = formatDate(value as number);
      break;
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      s = formatTimestamp(value as TimestampValue, type.precision);
      break;
    default:
      s = String(value);
  }
  return s === '' ? defaultName : s;
}

/** `k1=v1/k2=v2` for the given values (relative, no leading or trailing slash). */
export function partitionPath(keys: readonly string[], values: readonly string[]): string {
  return keys.map((k, i) => `${escapePathName(k)}=${escapePathName(values[i]!)}`).join('/');
}

/**
 * Reads the partition values of a file from its folders below the table root: the last `k=v` segment for
 * each key wins. Returns undefined when a key has no folder (the file is not in a partition).
 */
export function partitionValuesOf(relativeDir: string, keys: readonly string[]): string[] | undefined {
  if (keys.length === 0) return [];
  const found = new Map<string, string>();
  for (const seg of relativeDir.split(/[\\/]/)) {
    const eq = seg.indexOf('=');
    if (eq > 0) found.set(unescapePathName(seg.slice(0, eq)), unescapePathName(seg.slice(eq + 1)));
  }
  const out: string[] = [];
  for (const k of keys) {
    const v = found.get(k);
    if (v === undefined) return undefined;
    out.push(v);
  }
  return out;
}

/** Converts folder text back to a value of the partition column's type; the default name reads as NULL. */
export function partitionStringToValue(text: string, type: LogicalType, defaultName: string, column: string): unknown {
  if (text === defaultName) return null;
  const fail = (): never => {
    throw new ValidationError(`Partition value '${text}' of column '${column}' cannot be read as ${type.kind}.`);
  };
  switch (type.kind) {
    case 'CHAR':
    case 'VARCHAR':
      return text;
    case 'BOOLEAN':
      return text.toLowerCase() === 'true' ? true : text.toLowerCase() === 'false' ? false : fail();
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT': {
      const n = Number(text);
      return Number.isInteger(n) ? n : fail();
    }
    case 'BIGINT':
      return /^[+-]?\d+$/.test(text) ? BigInt(text) : fail();
    case 'FLOAT':
    case 'DOUBLE': {
      const n = Number(text);
      return Number.isNaN(n) ? fail() : type.kind === 'FLOAT' ? Math.fround(n) : n;
    }
    case 'DECIMAL':
      return Decimal.parse(text).rescale(type.scale);
    case 'DATE':
      return parseDate(text);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return parseTimestampValue(text, type.precision);
    default:
      throw new ValidationError(`Type ${type.kind} of partition column '${column}' is not supported for partitions.`);
  }
}

/**
 * The partitions under `root` (Flink's `PartitionPathUtils.searchPartSpecAndPaths`): every visible
 * folder exactly `keys.length` levels down whose `k=v` segments name all keys, as key to value text in
 * key order, the default name read as null. Synchronous: called once at planning time.
 */
export function listPartitionSpecs(root: string, keys: readonly string[], defaultName: string): Map<string, string | null>[] {
  const out: Map<string, string | null>[] = [];
  const seen = new Set<string>();
  const walk = (dir: string, rel: string, depth: number): void => {
    if (depth === keys.length) {
      const values = partitionValuesOf(rel, keys);
      if (values === undefined) return;
      const id = partitionPath(keys, values);
      if (seen.has(id)) return;
      seen.add(id);
      out.push(new Map(keys.map((k, i) => [k, values[i] === defaultName ? null : values[i]!])));
      return;
    }
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name.startsWith('.') || e.name.startsWith('_') || !e.name.includes('=')) continue;
      const p = join(dir, e.name);
      // The walk is keys.length levels deep at most: a linked folder cannot loop it.
      if (followedKindSync(p, e) !== 'directory') continue;
      walk(p, rel === '' ? e.name : `${rel}/${e.name}`, depth + 1);
    }
  };
  walk(resolve(root), '', 0);
  return out;
}

/**
 * A path filter that passes only files inside the given partition folders (and, if set, matching the
 * user's `source.path.regex-pattern`, itself anchored). Matches nothing for an empty list.
 */
export function partitionPathRegex(
  root: string,
  keys: readonly string[],
  partitions: readonly ReadonlyMap<string, string | null>[],
  defaultName: string,
  user: RegExp | undefined,
): RegExp {
  if (partitions.length === 0) return /(?!)/;
  const escape = (t: string): string => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const dirs = partitions.map((p) => escape(join(resolve(root), partitionPath(keys, keys.map((k) => p.get(k) ?? defaultName))) + '/'));
  return new RegExp(`^(?=(?:${dirs.join('|')}))${user === undefined ? '' : user.source}`, user?.flags ?? '');
}
