import type { KeyedStateStore, StateKey, ValueState } from '../runtime/state/state.js';
import { combineHash, hashValue, valuesEqual } from '../types/values/equality.js';
import { bigintOf } from '../types/values/small-bigint.js';

/*
 * Rows a join keeps (its state per key, the batch join's buffers) are stored flat: the fields of row i
 * of a list at `buf[i * stride .. i * stride + arity)`, with the outer side's match count in the slot
 * after them. Holding a million rows then means holding their values, not a million Row, array and
 * entry objects each (copied by every young-generation GC while young, then promoted: most of the join's
 * time was GC before).
 */

/** Slots per stored row: its fields, plus the match count on an outer side; at least 1 so rows stay countable. */
export function flatStride(arity: number, withCount: boolean): number {
  return Math.max(1, arity + (withCount ? 1 : 0));
}

/**
 * Per column of a stored side, whether it is BIGINT (null when none is): the streaming join stores such a value as a
 * number while it is a safe integer. A million stored rows then hold no bigint objects, which every old-generation
 * GC would mark, and a list of numbers only is an array V8 need not scan (a bids x auctions join: a quarter of its time
 * was GC). Readers widen them back (`storedField`) and compare them with `storedEquals`.
 */
export type NarrowedColumns = readonly boolean[] | null;

/** `v` as a join state stores it in a column `narrow` says is BIGINT. */
export function narrowed(v: unknown): unknown {
  if (typeof v !== 'bigint') return v;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

/**
 * Appends `f`'s first `arity` fields (BIGINT columns narrowed, see NarrowedColumns), then `count` if not undefined,
 * padded to `stride` slots.
 */
export function appendFlat(buf: unknown[], f: readonly unknown[], arity: number, stride: number, count?: number, narrow: NarrowedColumns = null): void {
  if (narrow === null) for (let i = 0; i < arity; i++) buf.push(f[i]);
  else for (let i = 0; i < arity; i++) buf.push(narrow[i] === true ? narrowed(f[i]) : f[i]);
  if (count !== undefined) buf.push(count);
  else if (stride > arity) buf.push(null);
}

/**
 * Whether stored value `s` (a BIGINT possibly narrowed to a number; a bigint in states of earlier releases) equals
 * the row value `v` by `valuesEqual`. A narrowed `s` is a safe integer, so `Number(v) === s` only for `v` exactly `s`.
 */
export function storedEquals(s: unknown, v: unknown): boolean {
  if (s === v) return true;
  if (typeof s === 'number' && typeof v === 'bigint') return Number(v) === s;
  return valuesEqual(s, v);
}

/** Whether the stored row at `o` of `buf` has the key of row `f` (as keyFieldsEqual: a NULL key matches nothing). */
export function storedKeyEquals(f: readonly unknown[], keys: readonly number[], buf: readonly unknown[], o: number, bufKeys: readonly number[]): boolean {
  for (let i = 0; i < keys.length; i++) {
    const x = f[keys[i]!];
    if (x === null || !storedEquals(buf[o + bufKeys[i]!], x)) return false;
  }
  return true;
}

/** Field `j` of the stored row at `o` of `buf` as the row had it: a narrowed BIGINT widened back. */
export function storedField(buf: readonly unknown[], o: number, j: number, wide: NarrowedColumns): unknown {
  const v = buf[o + j];
  return wide !== null && wide[j] === true && typeof v === 'number' ? bigintOf(v) : v;
}

/**
 * A batch of rows as one flat array, allocated at its final size (growing one buffer by `push` for a
 * million rows cost more than the join itself: every growth copies it into a new large object).
 */
export function flattenRows(rows: readonly { readonly fields: readonly unknown[] }[], arity: number, stride: number): unknown[] {
  const out = new Array<unknown>(rows.length * stride);
  for (let r = 0, o = 0; r < rows.length; r++, o += stride) {
    const f = rows[r]!.fields;
    for (let i = 0; i < arity; i++) out[o + i] = f[i];
    if (stride > arity) out[o + arity] = null;
  }
  return out;
}

/** The chunks' slots in order, as one array. */
export function concatChunks(chunks: readonly (readonly unknown[])[]): unknown[] {
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Array<unknown>(n);
  let o = 0;
  for (const c of chunks) for (let i = 0; i < c.length; i++) out[o++] = c[i];
  return out;
}

/**
 * The state / hash-table key of the row at `off` in `buf`. A single INT, DOUBLE, STRING, DATE or TIMESTAMP
 * key column (a number or string at runtime), or a BIGINT beyond the int32 range, is its own key: no
 * hashing per row, and `Map`'s SameValueZero agrees with `valuesEqual` on those (NaN = NaN, 0 = -0). A
 * BIGINT in the int32 range is keyed by its `hashValue` (see bigintJoinKey). Any other key (composite,
 * DECIMAL, BYTES, NULL, ...) is keyed by its hash, which may collide with another key's hash or with a
 * plain number, so callers still confirm candidates with `keyFieldsEqual`.
 */
export function joinKeyAt(buf: readonly unknown[], off: number, keys: readonly number[]): StateKey {
  if (keys.length === 1) {
    const v = buf[off + keys[0]!];
    const t = typeof v;
    if (t === 'number' || t === 'string') return v as number | string;
    if (t === 'bigint') return bigintJoinKey(v as bigint);
  }
  let h = 1;
  for (let i = 0; i < keys.length; i++) h = combineHash(h, hashValue(buf[off + keys[i]!]));
  return h;
}

/**
 * The join's state key of a single BIGINT key `v`: for an int32 `v` (ids, nearly always) its `hashValue`,
 * an int32 number, else `v` itself. A `Map` lookup by a bigint hashes and compares its digits, several times
 * the cost of one by a small integer (a bids-auctions join: 1.10x less CPU for the whole job). The hash is a
 * bijection on int32 (an xor, then MurmurHash3's finalizer), so distinct keys stay distinct, and `keyGroupOf`
 * of it equals `keyGroupOf(v)` (an int32 number is its own hash), so key groups, exchanges and rescaling are
 * unchanged. Checkpoints of earlier releases keyed such rows by the bigint: `migrateBigintJoinKeys` moves them.
 */
export function bigintJoinKey(v: bigint): StateKey {
  const n = Number(v);
  return n >= -0x80000000 && n <= 0x7fffffff ? hashValue(v) : v;
}

/**
 * Moves the rows that a state written before bigintJoinKey keyed by an int32 bigint to that key's current state
 * key, appending to rows already there. Only a state whose first key is a bigint can hold such keys (a BIGINT key's
 * keys were all bigints before, and are mostly numbers since), so a current state costs one key read. Call it after
 * the restore, before the first row.
 */
export function migrateBigintJoinKeys(ks: KeyedStateStore, name: string, state: ValueState<unknown[]>): void {
  const keys = ks.keys(name);
  const first = keys.next();
  // Ends the iteration at once: an on-disk backend's key iterator holds a read transaction until it ends.
  keys.return?.();
  if (first.done === true || typeof first.value !== 'bigint') return;
  const old: bigint[] = [];
  for (const k of ks.keys(name)) if (typeof k === 'bigint' && bigintJoinKey(k) !== k) old.push(k);
  for (const k of old) {
    ks.setCurrentKey(k);
    const rows = state.value();
    state.clear();
    if (rows === undefined) continue;
    ks.setCurrentKey(bigintJoinKey(k));
    const there = state.value();
    state.update(there === undefined ? rows : there.concat(rows));
  }
}

/** Where a stored row with the fields `f` is in `buf` (an offset), or -1. */
export function indexOfFlat(buf: readonly unknown[], stride: number, f: readonly unknown[], arity: number): number {
  outer: for (let o = 0; o < buf.length; o += stride) {
    for (let i = 0; i < arity; i++) if (!storedEquals(buf[o + i], f[i])) continue outer;
    return o;
  }
  return -1;
}

/**
 * A fresh joined row's fields: `leftArity` fields of `l` from offset `lo`, then `rightArity` of `r` from
 * `ro`; a missing side (null) padded with NULLs. Called per output row, so no closures or spread.
 */
export function concatFields(
  l: readonly unknown[] | null, lo: number, leftArity: number,
  r: readonly unknown[] | null, ro: number, rightArity: number,
): unknown[] {
  const out = new Array<unknown>(leftArity + rightArity);
  if (l === null) for (let i = 0; i < leftArity; i++) out[i] = null;
  else for (let i = 0; i < leftArity; i++) out[i] = l[lo + i];
  if (r === null) for (let i = 0; i < rightArity; i++) out[leftArity + i] = null;
  else for (let i = 0; i < rightArity; i++) out[leftArity + i] = r[ro + i];
  return out;
}

/**
 * `concatFields` of a probe row `f` and the stored row at `o` of `buf` (on the left when `storedLeft`), the stored
 * fields widened back (see NarrowedColumns). A stored key column takes the probe's value (equal, and already a
 * bigint): `keyOf[j]` is the index in `f` of the key equal to stored column `j`, or -1.
 */
export function joinStored(
  f: readonly unknown[], buf: readonly unknown[], o: number, storedLeft: boolean,
  leftArity: number, rightArity: number, wide: NarrowedColumns, keyOf: readonly number[],
): unknown[] {
  const out = new Array<unknown>(leftArity + rightArity);
  const at = storedLeft ? 0 : leftArity;
  const fAt = storedLeft ? leftArity : 0;
  const sArity = storedLeft ? leftArity : rightArity;
  const fArity = storedLeft ? rightArity : leftArity;
  for (let i = 0; i < fArity; i++) out[fAt + i] = f[i];
  for (let j = 0; j < sArity; j++) {
    const v = buf[o + j];
    if (wide === null || wide[j] !== true || typeof v !== 'number') out[at + j] = v;
    else out[at + j] = keyOf[j]! >= 0 ? f[keyOf[j]!] : bigintOf(v);
  }
  return out;
}

/** The stored row at `o` of `buf`, widened back, padded with NULLs for the other side (an unmatched outer row). */
export function padStored(buf: readonly unknown[], o: number, storedLeft: boolean, leftArity: number, rightArity: number, wide: NarrowedColumns): unknown[] {
  const out = new Array<unknown>(leftArity + rightArity).fill(null);
  const at = storedLeft ? 0 : leftArity;
  const n = storedLeft ? leftArity : rightArity;
  for (let j = 0; j < n; j++) out[at + j] = storedField(buf, o, j, wide);
  return out;
}

/** Per column of a stored side (`arity` columns, keys `storedKeys`): the index of the probe row's equal key, or -1. */
export function keyOf(arity: number, storedKeys: readonly number[], probeKeys: readonly number[]): number[] {
  const out = new Array<number>(arity).fill(-1);
  storedKeys.forEach((j, k) => {
    out[j] = probeKeys[k]!;
  });
  return out;
}
