import { isAscii } from 'node:buffer';
import { asciiDecode, utf8DecodeRange } from '../../util/utf8.js';

/**
 * One column of a `ColumnBatch`: where value `j` (0-based within the batch) of the column is read from.
 * The common layouts are buffers read in place (an Arrow record batch's, without copying), so a column
 * never exists as an array of Sluice values unless a format had to build one (`values`). Reading value
 * `j` of any kind gives exactly the Sluice value of docs/values.md.
 */
export type ColumnVector =
  /** `values[j]` is the value: a typed array (or plain array) whose elements are Sluice values. */
  | { readonly kind: 'typed'; readonly values: ArrayLike<unknown>; readonly validity: Validity | undefined }
  /** Int64 epoch values as two int32 halves (`words[2j]` low, `words[2j+1]` high), in `unit`, read as ms. */
  | { readonly kind: 'int64'; readonly words: Int32Array; readonly unit: 'ms' | 'us' | 's'; readonly validity: Validity | undefined }
  /**
   * Strings still as UTF-8 bytes: value `j` is `bytes[offsets[j], offsets[j + 1])` decoded, and only
   * when it is read (Flink keeps strings binary the same way, BinaryStringData). A batch that is never
   * turned into rows costs no string decoding at all.
   */
  | { readonly kind: 'utf8'; readonly bytes: Uint8Array; readonly offsets: Int32Array; readonly validity: Validity | undefined }
  /** ASCII strings: one decoded `text` of the batch's range, value `j` cut at `offsets[j] - base`. */
  | { readonly kind: 'ascii'; readonly text: string; readonly offsets: Int32Array; readonly base: number; readonly validity: Validity | undefined }
  /** Booleans: bit `offset + j` of `bits`. */
  | { readonly kind: 'bool'; readonly bits: Uint8Array; readonly offset: number; readonly validity: Validity | undefined }
  /** Already Sluice values, NULLs included. */
  | { readonly kind: 'values'; readonly values: ArrayLike<unknown> }
  /** The same value in every row (a partition column, a file's metadata). */
  | { readonly kind: 'constant'; readonly value: unknown };

/**
 * A `utf8` vector decoded for reading every value: ASCII text (the common case) is decoded in one native
 * call and cut with substrings; other text is decoded value by value. Other kinds are returned as they are.
 */
export function decodeText(v: ColumnVector, n: number): ColumnVector {
  if (v.kind !== 'utf8') return v;
  const { bytes, offsets, validity } = v;
  const start = offsets[0]!;
  const end = offsets[n]!;
  if (isAscii(bytes.subarray(start, end))) return { kind: 'ascii', text: asciiDecode(bytes, start, end), offsets, base: start, validity };
  const values = new Array<unknown>(n);
  for (let j = 0; j < n; j++) values[j] = isValid(validity, j) ? utf8DecodeRange(bytes, offsets[j]!, offsets[j + 1]!) : null;
  return { kind: 'values', values };
}

/** Row `j` holds a value when bit `offset + j` of `bitmap` is set (Arrow's validity bitmap). */
export interface Validity {
  readonly bitmap: Uint8Array;
  readonly offset: number;
}

/** The shape a row assembler is compiled for: one letter per kind, `?` when the column has NULLs. */
export function vectorSignature(v: ColumnVector): string {
  switch (v.kind) {
    case 'typed':
      return v.validity === undefined ? 't' : 't?';
    case 'int64':
      return (v.unit === 'ms' ? 'm' : v.unit === 'us' ? 'u' : 's') + (v.validity === undefined ? '' : '?');
    case 'ascii':
      return v.validity === undefined ? 'a' : 'a?';
    case 'utf8':
      return v.validity === undefined ? 'x' : 'x?';
    case 'bool':
      return v.validity === undefined ? 'b' : 'b?';
    case 'values':
      return 'v';
    case 'constant':
      return 'c';
    default: {
      const never: never = v;
      throw new Error(`unknown column vector ${String(never)}`);
    }
  }
}

const isValid = (m: Validity | undefined, j: number): boolean =>
  m === undefined || (m.bitmap[(m.offset + j) >> 3]! & (1 << ((m.offset + j) & 7))) !== 0;

/**
 * Value `j` of `v`. For consumers reading a few cells (a filter's column, a key); whole rows are built by
 * the compiled assemblers of `row-assembler.ts`, which read every cell at its own call site.
 */
export function vectorValue(v: ColumnVector, j: number): unknown {
  switch (v.kind) {
    case 'typed':
      return isValid(v.validity, j) ? v.values[j] : null;
    case 'int64': {
      if (!isValid(v.validity, j)) return null;
      const raw = v.words[2 * j + 1]! * 4294967296 + (v.words[2 * j]! >>> 0);
      return v.unit === 'ms' ? raw : v.unit === 'us' ? Math.floor(raw / 1000) : raw * 1000;
    }
    case 'ascii':
      return isValid(v.validity, j) ? v.text.substring(v.offsets[j]! - v.base, v.offsets[j + 1]! - v.base) : null;
    case 'utf8':
      return isValid(v.validity, j) ? utf8DecodeRange(v.bytes, v.offsets[j]!, v.offsets[j + 1]!) : null;
    case 'bool':
      return isValid(v.validity, j) ? (v.bits[(v.offset + j) >> 3]! & (1 << ((v.offset + j) & 7))) !== 0 : null;
    case 'values':
      return v.values[j];
    case 'constant':
      return v.value;
    default: {
      const never: never = v;
      throw new Error(`unknown column vector ${String(never)}`);
    }
  }
}
