import { Configuration } from '../../../src/config/configuration.js';
import type { DeserializationSchema, SerializationSchema } from '../../../src/factories/format.js';
import { Row } from '../../../src/types/row.js';
import { readPravegaSinkConfig, readPravegaSourceConfig, type PravegaSinkConfig, type PravegaSourceConfig } from '../../../src/connectors/pravega/pravega-options.js';
import { CONTROLLER_URI } from './pravega-env.js';

/** Decodes an event `key:seq` into the row (key, seq). */
export function keySeqDecoder(): DeserializationSchema {
  return {
    skippedRecords: 0,
    deserialize(message: Uint8Array, out: Row[]): void {
      const text = Buffer.from(message).toString('utf8');
      const i = text.lastIndexOf(':');
      out.push(Row.insert(text.slice(0, i), Number(text.slice(i + 1))));
    },
  };
}

/** Encodes the row (key, seq) as `key:seq`. */
export function keySeqEncoder(): SerializationSchema {
  return { serialize: (r: Row) => Buffer.from(`${String(r.fields[0])}:${String(r.fields[1])}`) };
}

export function sourceConfig(scope: string, options: Record<string, string>): PravegaSourceConfig {
  return readPravegaSourceConfig(new Configuration({ 'controller-uri': CONTROLLER_URI, scope, ...options }));
}

export function sinkConfig(scope: string, options: Record<string, string>): PravegaSinkConfig {
  return readPravegaSinkConfig(new Configuration({ 'controller-uri': CONTROLLER_URI, scope, ...options }));
}

/** A temporary Pravega table over `stream` (read in batch mode and written), JSON events; `options` override. */
export function pravegaTableDdl(table: string, columns: string, scope: string, stream: string, options: Record<string, string> = {}): string {
  const opts = {
    connector: 'pravega',
    'controller-uri': CONTROLLER_URI,
    scope,
    'scan.streams': stream,
    'sink.stream': stream,
    'scan.execution.type': 'batch',
    format: 'json',
    ...options,
  };
  const withs = Object.entries(opts)
    .map(([k, v]) => `'${k}' = '${v}'`)
    .join(', ');
  return `CREATE TEMPORARY TABLE ${table} (${columns}) WITH (${withs})`;
}

/** Checks every key's sequence numbers are strictly increasing; returns the offending keys. */
export function keysOutOfOrder(rows: readonly { key: string; seq: number }[]): string[] {
  const last = new Map<string, number>();
  const bad = new Set<string>();
  for (const r of rows) {
    const prev = last.get(r.key);
    if (prev !== undefined && r.seq <= prev) bad.add(r.key);
    last.set(r.key, r.seq);
  }
  return [...bad];
}

export async function waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
