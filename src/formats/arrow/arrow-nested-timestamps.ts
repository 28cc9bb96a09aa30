import * as A from 'apache-arrow';
import type { LogicalType } from '../../types/logical-type.js';
import { epochMicrosOf, epochNanosOf, timestampOfEpochNanos } from '../../types/values/precise-timestamp.js';
import type { TimestampValue } from '../../types/values/precise-timestamp.js';

/**
 * TIMESTAMP(4..9) values inside an ARRAY, MAP, MULTISET or ROW, kept to the digit through Arrow files.
 *
 * apache-arrow's builders, which write nested values, take a timestamp as epoch milliseconds in a double and its
 * getters give one back, so micro- and nanoseconds would be lost or rounded. The builders still lay out the nested
 * column (offsets, validity, children); these walks then put the exact int64 of each timestamp leaf into its values
 * buffer after writing, and take it from there after reading. Leaves are visited in the order the builders place
 * them: a struct's child j is row j's field, a list's child holds the elements of its rows one after the other, a
 * map's entries likewise.
 */

/** Whether `t` holds, somewhere below its top level, a timestamp finer than milliseconds. */
export function hasNestedFineTimestamp(t: LogicalType): boolean {
  switch (t.kind) {
    case 'ARRAY':
      return isFineOrHolds(t.element);
    case 'MULTISET':
      return isFineOrHolds(t.element);
    case 'MAP':
      return isFineOrHolds(t.key) || isFineOrHolds(t.value);
    case 'ROW':
      return t.fields.some((f) => isFineOrHolds(f.type));
    default:
      return false;
  }
}

function isFineOrHolds(t: LogicalType): boolean {
  return isFine(t) || hasNestedFineTimestamp(t);
}

function isFine(t: LogicalType): t is LogicalType & { kind: 'TIMESTAMP' | 'TIMESTAMP_LTZ'; precision: number } {
  return (t.kind === 'TIMESTAMP' || t.kind === 'TIMESTAMP_LTZ') && t.precision > 3;
}

/** A Timestamp[us] or Timestamp[ns] column, the only units finer than milliseconds Sluice writes or reads exactly. */
function fineUnit(data: A.Data): A.TimeUnit.MICROSECOND | A.TimeUnit.NANOSECOND | undefined {
  if (data.typeId !== A.Type.Timestamp) return undefined;
  const unit = (data.type as A.Timestamp).unit;
  return unit === A.TimeUnit.MICROSECOND || unit === A.TimeUnit.NANOSECOND ? unit : undefined;
}

/** After a builder wrote `values` (Sluice values of `t`, one per slot of `data`): the exact timestamp leaves. */
export function writeExactTimestamps(data: A.Data, t: LogicalType, values: readonly unknown[]): void {
  if (isFine(t)) {
    const unit = fineUnit(data);
    if (unit === undefined) return;
    const units = unit === A.TimeUnit.NANOSECOND ? epochNanosOf : epochMicrosOf;
    const out = data.values as BigInt64Array;
    values.forEach((v, j) => {
      if (v !== null && v !== undefined) out[j] = units(v as TimestampValue);
    });
    return;
  }
  for (const [child, type, leaves] of childrenOf(data, t, values)) writeExactTimestamps(child, type, leaves);
}

/** After apache-arrow's getters read `values` of `t` from `data`: the timestamp leaves replaced by their exact values. */
export function readExactTimestamps(data: A.Data, t: LogicalType, values: unknown[]): void {
  if (isFine(t)) {
    const unit = fineUnit(data);
    if (unit === undefined) return;
    const toNanos = unit === A.TimeUnit.NANOSECOND ? 1n : 1_000n;
    const raw = data.values as BigInt64Array;
    for (let j = 0; j < values.length; j++) {
      if (values[j] !== null && values[j] !== undefined) values[j] = timestampOfEpochNanos(raw[j]! * toNanos);
    }
    return;
  }
  for (const [child, type, leaves, putBack] of childrenOf(data, t, values)) {
    readExactTimestamps(child, type, leaves);
    putBack?.(leaves);
  }
}

/**
 * The child columns of a nested `data` with the Sluice values they hold, in slot order; for reading, a function
 * that puts changed leaves back into the parent values (a map is rebuilt, since its keys may change).
 */
function childrenOf(data: A.Data, t: LogicalType, values: readonly unknown[]): [A.Data, LogicalType, unknown[], ((leaves: unknown[]) => void)?][] {
  switch (t.kind) {
    case 'ROW': {
      if (data.typeId !== A.Type.Struct) return [];
      return t.fields.flatMap((f, i) => {
        const child = data.children[i];
        if (child === undefined || !isFineOrHolds(f.type)) return [];
        const leaves = values.map((v) => (v === null || v === undefined ? null : (v as unknown[])[i]));
        const putBack = (ls: unknown[]): void => {
          values.forEach((v, j) => {
            if (v !== null && v !== undefined) (v as unknown[])[i] = ls[j];
          });
        };
        return [[child, f.type, leaves, putBack]];
      });
    }
    case 'ARRAY': {
      const child = data.children[0];
      if (data.typeId !== A.Type.List || child === undefined || !isFineOrHolds(t.element)) return [];
      const leaves = values.flatMap((v) => (v === null || v === undefined ? [] : (v as unknown[])));
      const elements = slotsOf(data, child, leaves.length);
      if (elements === undefined) return [];
      const putBack = (ls: unknown[]): void => {
        let k = 0;
        for (const v of values) {
          if (v === null || v === undefined) continue;
          const arr = v as unknown[];
          for (let e = 0; e < arr.length; e++) arr[e] = ls[k++];
        }
      };
      return [[elements, t.element, leaves, putBack]];
    }
    case 'MAP':
    case 'MULTISET': {
      const entries = data.children[0];
      if (data.typeId !== A.Type.Map || entries === undefined || entries.children.length < 2) return [];
      const maps = values.map((v) => (v === null || v === undefined ? null : [...(v as Map<unknown, unknown>)]));
      const pairs = maps.flatMap((m) => m ?? []);
      const slots = slotsOf(data, entries, pairs.length);
      if (slots === undefined || slots.children.length < 2) return [];
      const keyType = t.kind === 'MAP' ? t.key : t.element;
      const keys = pairs.map(([k]) => k);
      const vals = pairs.map(([, x]) => x);
      const rebuild = (): void => {
        let k = 0;
        maps.forEach((m, j) => {
          if (m === null) return;
          const next = new Map<unknown, unknown>();
          for (let e = 0; e < m.length; e++, k++) next.set(keys[k], vals[k]);
          (values as unknown[])[j] = next;
        });
      };
      const out: [A.Data, LogicalType, unknown[], ((leaves: unknown[]) => void)?][] = [];
      if (isFineOrHolds(keyType)) out.push([slots.children[0]!, keyType, keys, rebuild]);
      if (t.kind === 'MAP' && isFineOrHolds(t.value)) out.push([slots.children[1]!, t.value, vals, rebuild]);
      return out;
    }
    default:
      return [];
  }
}

/**
 * The part of a list's or map's child that `data`'s rows use: a sliced list keeps its whole child and offsets that
 * start past 0. Undefined when the count of values does not match the layout (then nothing is touched).
 */
function slotsOf(data: A.Data, child: A.Data, count: number): A.Data | undefined {
  const offsets = data.valueOffsets as Int32Array | undefined;
  if (offsets === undefined || offsets.length < data.length + 1) return undefined;
  const first = offsets[0]!;
  if (offsets[data.length]! - first !== count || first + count > child.length) return undefined;
  return first === 0 && count === child.length ? child : child.slice(first, count);
}
