import { ExecutionError } from '../../errors/sluice-error.js';
import type { OperatorSnapshot } from '../operator-chain.js';
import type { KeyedStateRecord, Kind } from '../state/heap-state-backend.js';
import { LargeMap, SHARD_ENTRIES } from '../state/large-map.js';
import { decodeState, encodeState } from '../state/state-codec.js';
import { StateDecoder } from '../state/state-decoder.js';
import { MAGIC, Tag } from '../state/state-format.js';
import type { StateKey } from '../state/state.js';

/**
 * Incremental checkpoints (docs/state-format.md "Incremental checkpoints"): an on-disk state backend's
 * operator snapshot may be a delta, holding only the keyed entries written since an earlier completed
 * checkpoint (its base) and the keys removed since. Its encoded `OperatorSnapshot` then starts with a
 * `base` field (the base's checkpoint id), read here without decoding the rest, so that writing a
 * checkpoint can record which earlier ones it needs. Reading one merges each delta onto its chain of bases
 * (`mergeOperatorSnapshots`), so backends, rescaling and the heap backend only ever see whole snapshots.
 */

/**
 * The checkpoint id an encoded operator snapshot builds on, or undefined for a whole one (any snapshot
 * written before incremental checkpoints, node:v8 ones included). Reads the header and the first field only.
 */
export function operatorSnapshotBase(bytes: Uint8Array): number | undefined {
  if (bytes.length < MAGIC.length + 2) return undefined;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC[i]) return undefined;
  const d = new StateDecoder(bytes, MAGIC.length);
  d.uvarint();
  if (bytes[d.pos] !== Tag.OBJECT) return undefined;
  d.pos++;
  if (d.uvarint() === 0 || d.string() !== 'base') return undefined;
  const base = d.value();
  return typeof base === 'number' ? base : undefined;
}

/**
 * One operator's whole snapshot from a chain of its snapshots, oldest first: a whole one, then deltas, each
 * building on the one before it. Keyed state is the first one's with each delta's removals and entries
 * applied in order; everything else (the operator's own state, operator list state, timers) is the last
 * one's, which a delta holds in full. Each state's entries come in Maps of at most `shardEntries`, as a
 * whole snapshot's.
 *
 * @throws ExecutionError if the chain does not start with a whole snapshot
 */
export function mergeOperatorSnapshots(chain: readonly Uint8Array[], shardEntries?: number): Uint8Array {
  const snaps = chain.map((b) => decodeState(b) as OperatorSnapshot);
  const first = snaps[0];
  if (first === undefined || first.base !== undefined || first.keyed.base !== undefined) {
    throw new ExecutionError('Cannot read an incremental checkpoint: the oldest snapshot of its chain is itself incremental; the chain is broken.');
  }
  const tables = new Map<string, { kind: Kind; data: LargeMap<StateKey, unknown> }>();
  const tableOf = (r: KeyedStateRecord): LargeMap<StateKey, unknown> => {
    let t = tables.get(r.name);
    if (t === undefined) tables.set(r.name, (t = { kind: r.kind, data: new LargeMap<StateKey, unknown>([], shardEntries) }));
    return t.data;
  };
  // The whole snapshot's Maps are taken as its shards (decoded afresh here, so no one else holds them), as
  // the heap backend restores them; pairs of an earlier release go through `set`.
  const shards = new Map<string, { kind: Kind; maps: Map<StateKey, unknown>[] }>();
  for (const r of first.keyed.states) {
    let t = shards.get(r.name);
    if (t === undefined) shards.set(r.name, (t = { kind: r.kind, maps: [] }));
    if (r.entries instanceof Map && r.entries.size <= (shardEntries ?? SHARD_ENTRIES)) t.maps.push(r.entries as Map<StateKey, unknown>);
    else {
      const m = new LargeMap<StateKey, unknown>([], shardEntries);
      for (const [k, v] of r.entries) m.set(k, v);
      t.maps.push(...m.maps);
    }
  }
  for (const [name, t] of shards) tables.set(name, { kind: t.kind, data: new LargeMap(t.maps, shardEntries) });
  for (const s of snaps.slice(1)) {
    for (const r of s.keyed.states) {
      const data = tableOf(r);
      for (const k of r.removed ?? []) data.delete(k);
      for (const [k, v] of r.entries) data.set(k, v);
    }
  }
  const last = snaps[snaps.length - 1]!;
  const states = [...tables].flatMap(([name, t]) => t.data.maps.map((entries) => ({ name, kind: t.kind, entries })));
  const merged: OperatorSnapshot = { raw: last.raw, keyed: { states }, operatorState: last.operatorState, timers: last.timers };
  return encodeState(merged);
}
