import { deserialize } from 'node:v8';
import { ExecutionError } from '../../errors/sluice-error.js';
import { Row } from '../../types/row.js';
import type { RowKind } from '../../types/row-kind.js';
import { stateClassByName } from './state-classes.js';

/**
 * Reads state written by Sluice releases before format version 1: node:v8 `serialize` of a tree in which
 * a Row was `{ $row: kind, f: fields }` and a registered class `{ $cls: name, v: plain }`. Read-only: it
 * exists so checkpoints and savepoints of those releases still restore; nothing writes this form anymore.
 */
export function decodeLegacyV8State(data: Uint8Array): unknown {
  let plain: unknown;
  try {
    plain = deserialize(data);
  } catch (e) {
    throw new ExecutionError(`Cannot read checkpointed state in the legacy node:v8 format: ${(e as Error).message}.`, { cause: e });
  }
  return fromPlain(plain);
}

function fromPlain(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(fromPlain);
  if (v instanceof Uint8Array) return v;
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [fromPlain(k), fromPlain(x)]));
  if (v instanceof Set) return new Set([...v].map(fromPlain));
  const o = v as Record<string, unknown>;
  if ('$row' in o) return new Row(o.$row as RowKind, (o.f as unknown[]).map(fromPlain));
  if (typeof o.$cls === 'string') {
    const c = stateClassByName(o.$cls);
    if (!c) throw new ExecutionError(`Checkpointed state holds a value of class '${o.$cls}' that is not registered with registerStateClass.`);
    return c.fromPlain(fromPlain(o.v));
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) out[k] = fromPlain(x);
  return out;
}
