import { ExecutionError } from '../../errors/sluice-error.js';
import { Row } from '../../types/row.js';
import type { RowKind } from '../../types/row-kind.js';
import { decodeState } from '../state/state-codec.js';
import { encodeStateV1, UnsupportedStateValue } from '../state/state-encoder.js';
import { describeStateValue } from '../state/state-path.js';

/**
 * A batch of rows as one compact binary buffer for another thread, laid out by column as Arrow lays out
 * a record batch: a column of BIGINTs is one `BigInt64Array`, numbers one `Float64Array`, strings one
 * UTF-8 block with offsets, each with a null mask when it holds nulls, and a column of nested rows (arrays
 * of one length) its fields as columns of their own, as Arrow's struct arrays. Any other column (Decimal,
 * Date, bytes, arrays of mixed lengths, maps, booleans, mixed types) is written with the state codec
 * (docs/state-format.md), which keeps every value exact, and so is a batch whose rows differ in arity.
 * Row by row through the state codec cost ~0.4 µs per row of two BIGINTs to encode and decode; by
 * column it is a few tens of ns. The buffer is its own ArrayBuffer, so it is transferred, not copied.
 *
 * Layout (little endian): u8 format (ROWS: the state codec's bytes of the row array follow; COLUMNS:
 * the following), u32 row count, u32 arity, u8 kinds (ALL_INSERT, or PER_ROW with one byte per row),
 * then per column a u8 type, a u8 has-nulls flag (then one byte per row, 1 = null) and the values:
 * I64 / F64 padded to 8 bytes then 8 bytes per row; STR a u8 all-ASCII flag, u32 byte length, padding
 * to 8, u32 offsets (rows + 1) and the UTF-8 bytes; ROW u32 arity, then each field as a column (a null
 * row's fields are written as nulls); STATE u32 length and the state codec's bytes of the column's values.
 */
const Format = { ROWS: 0, COLUMNS: 1 } as const;
const Kinds = { ALL_INSERT: 0, PER_ROW: 1 } as const;
const Col = { I64: 0, F64: 1, STR: 2, STATE: 3, ROW: 4 } as const;
type Col = (typeof Col)[keyof typeof Col];

const MIN_I64 = -(2n ** 63n);
const MAX_I64 = 2n ** 63n - 1n;
/** The scratch buffer is kept between batches up to this size; a larger one is let go after use. */
const KEEP_SCRATCH = 4 << 20;
/** Strings up to this length are checked for ASCII and copied in JavaScript. */
const SHORT_STRING = 64;

/** Node's native Buffer string codecs, faster than `write`/`toString` (no encoding switch); untyped in @types/node. */
interface FastBuffer extends Buffer {
  utf8Write(s: string, offset: number, length: number): number;
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
}

let scratch: FastBuffer = Buffer.allocUnsafeSlow(64 << 10) as FastBuffer;

class Writer {
  pos = 0;
  constructor(public buf: FastBuffer) {}

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + n)) as FastBuffer;
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v, this.pos);
    this.pos += 4;
  }

  /** Pads to a multiple of 8, so a typed array of 8-byte values can view the buffer there. */
  align8(): void {
    const pad = (8 - (this.pos & 7)) & 7;
    this.ensure(pad);
    this.buf.fill(0, this.pos, this.pos + pad);
    this.pos += pad;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
}

/** Nested rows are laid out by column down to this depth; deeper ones go through the state codec. */
const MAX_NESTING = 4;

/**
 * The column type for `values`, whether it holds nulls, and for ROW the arity every non-null value has. A column
 * of arrays of one length is a ROW column (a nested ROW, or an ARRAY whose values all have that length: both are
 * plain arrays, so they decode the same), laid out by field.
 */
function columnType(values: readonly unknown[], depth: number): { type: Col; nulls: boolean; arity: number } {
  let type: Col | undefined;
  let nulls = false;
  let arity = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) {
      nulls = true;
      continue;
    }
    let t: Col;
    switch (typeof v) {
      case 'bigint':
        if (v < MIN_I64 || v > MAX_I64) return { type: Col.STATE, nulls, arity };
        t = Col.I64;
        break;
      case 'number':
        t = Col.F64;
        break;
      case 'string':
        t = Col.STR;
        break;
      default: {
        // Only plain arrays: a typed array (BYTES) is an object the state codec keeps as it is.
        if (!Array.isArray(v) || depth >= MAX_NESTING) return { type: Col.STATE, nulls, arity };
        if (arity === -1) arity = v.length;
        else if (v.length !== arity) return { type: Col.STATE, nulls, arity };
        t = Col.ROW;
      }
    }
    if (type === undefined) type = t;
    else if (type !== t) return { type: Col.STATE, nulls, arity };
  }
  return { type: type ?? Col.STATE, nulls, arity };
}

function encodeColumns(w: Writer, rows: readonly Row[], arity: number): void {
  const n = rows.length;
  w.u8(Format.COLUMNS);
  w.u32(n);
  w.u32(arity);
  let allInsert = true;
  for (let i = 0; i < n; i++) if (rows[i]!.kind !== 0) allInsert = false;
  w.u8(allInsert ? Kinds.ALL_INSERT : Kinds.PER_ROW);
  if (!allInsert) {
    w.ensure(n);
    for (let i = 0; i < n; i++) w.buf[w.pos++] = rows[i]!.kind;
  }
  const values = new Array<unknown>(n);
  for (let c = 0; c < arity; c++) {
    for (let i = 0; i < n; i++) values[i] = rows[i]!.fields[c];
    encodeColumn(w, values, 0);
  }
}

/** One column: its type byte, null mask and values; a ROW column's fields follow it as columns of their own. */
function encodeColumn(w: Writer, values: readonly unknown[], depth: number): void {
  const n = values.length;
  const col = columnType(values, depth);
  const nulls = col.nulls;
  let type = col.type;
  const start = w.pos;
  if (type === Col.STR && !writeStrings(w, values, nulls)) {
    // A string with a lone surrogate: UTF-8 cannot hold it, the state codec can.
    w.pos = start;
    type = Col.STATE;
  }
  if (type === Col.STR) return;
  w.u8(type);
  if (type === Col.STATE) {
    w.u8(0);
    const b = encodeStateV1(values);
    w.u32(b.length);
    w.bytes(b);
    return;
  }
  w.u8(nulls ? 1 : 0);
  if (nulls) writeNullMask(w, values);
  if (type === Col.ROW) {
    w.u32(col.arity);
    const field = new Array<unknown>(n);
    for (let k = 0; k < col.arity; k++) {
      for (let i = 0; i < n; i++) {
        const v = values[i] as unknown[] | null;
        field[i] = v === null ? null : v[k];
      }
      encodeColumn(w, field, depth + 1);
    }
    return;
  }
  w.align8();
  w.ensure(8 * n);
  if (type === Col.I64) {
    const a = new BigInt64Array(w.buf.buffer, w.buf.byteOffset + w.pos, n);
    for (let i = 0; i < n; i++) {
      const v = values[i];
      a[i] = v === null ? 0n : (v as bigint);
    }
  } else {
    const a = new Float64Array(w.buf.buffer, w.buf.byteOffset + w.pos, n);
    for (let i = 0; i < n; i++) {
      const v = values[i];
      a[i] = v === null ? 0 : (v as number);
    }
  }
  w.pos += 8 * n;
}

function writeNullMask(w: Writer, values: readonly unknown[]): void {
  const n = values.length;
  w.ensure(n);
  for (let i = 0; i < n; i++) w.buf[w.pos++] = values[i] === null ? 1 : 0;
}

/** Writes a string column; false when a string is not well-formed UTF-16 (the caller rewinds). */
function writeStrings(w: Writer, values: readonly unknown[], nulls: boolean): boolean {
  const n = values.length;
  w.u8(Col.STR);
  w.u8(nulls ? 1 : 0);
  if (nulls) writeNullMask(w, values);
  const asciiAt = w.pos;
  w.u8(1);
  const lengthAt = w.pos;
  w.u32(0);
  w.align8();
  const offsetsAt = w.pos;
  w.ensure(4 * (n + 1));
  w.pos += 4 * (n + 1);
  const base = w.pos;
  for (let i = 0; i < n; i++) {
    w.buf.writeUInt32LE(w.pos - base, offsetsAt + 4 * i);
    const s = values[i];
    if (s === null) continue;
    const str = s as string;
    const len = str.length;
    // At most 3 bytes per UTF-16 unit.
    w.ensure(len * 3);
    const buf = w.buf;
    let p = w.pos;
    // Short ASCII text is copied here: cheaper than a native call per string.
    if (len <= SHORT_STRING) {
      let k = 0;
      for (; k < len; k++) {
        const ch = str.charCodeAt(k);
        if (ch >= 0x80) break;
        buf[p + k] = ch;
      }
      if (k === len) {
        w.pos = p + len;
        continue;
      }
    }
    const written = buf.utf8Write(str, p, len * 3);
    // As many bytes as units is ASCII; more is other text, which must be well-formed to round-trip.
    if (written !== len) {
      if (!(str as unknown as { isWellFormed(): boolean }).isWellFormed()) return false;
      buf[asciiAt] = 0;
    }
    p += written;
    w.pos = p;
  }
  w.buf.writeUInt32LE(w.pos - base, offsetsAt + 4 * n);
  w.buf.writeUInt32LE(w.pos - base, lengthAt);
  return true;
}

/** One row array per batch: the state codec's format, for batches the columnar layout does not fit. */
function encodeRows(w: Writer, rows: readonly Row[]): void {
  w.u8(Format.ROWS);
  w.bytes(encodeStateV1(rows));
}

export function encodeBatch(rows: readonly Row[]): ArrayBuffer {
  const w = new Writer(scratch);
  try {
    const arity = rows.length > 0 ? rows[0]!.fields.length : 0;
    let same = rows.length > 0;
    for (let i = 1; i < rows.length && same; i++) same = rows[i]!.fields.length === arity;
    if (same) encodeColumns(w, rows, arity);
    else encodeRows(w, rows);
    // Its own ArrayBuffer, never a view of the scratch buffer: it is transferred to the other thread.
    const out = new Uint8Array(w.pos);
    out.set(w.buf.subarray(0, w.pos));
    return out.buffer;
  } catch (e) {
    if (e instanceof UnsupportedStateValue) {
      throw new ExecutionError(
        `Cannot send a batch of rows to another worker thread: a row holds ${describeStateValue(e.value)}, which cannot cross threads. Set 'execution.worker-threads' = 'off' to run the job on one thread.`,
      );
    }
    throw e;
  } finally {
    if (w.buf.length <= KEEP_SCRATCH) scratch = w.buf;
  }
}

export function decodeBatch(data: ArrayBuffer): Row[] {
  const b = Buffer.from(data) as FastBuffer;
  if (b[0] === Format.ROWS) return decodeState(b.subarray(1)) as Row[];
  const n = b.readUInt32LE(1);
  const arity = b.readUInt32LE(5);
  const r = new Reader(b, data, 9);
  const kinds = b[r.pos++] === Kinds.PER_ROW ? b.subarray(r.pos, (r.pos += n)) : undefined;
  const fields: unknown[][] = new Array(n);
  for (let i = 0; i < n; i++) fields[i] = new Array(arity);
  for (let c = 0; c < arity; c++) {
    const values = r.column(n);
    for (let i = 0; i < n; i++) fields[i]![c] = values[i];
  }
  const rows = new Array<Row>(n);
  for (let i = 0; i < n; i++) rows[i] = new Row((kinds === undefined ? 0 : kinds[i]!) as RowKind, fields[i]!);
  return rows;
}

/** Reads the columns `encodeColumn` wrote, each as an array of its `n` values. */
class Reader {
  constructor(
    private readonly b: FastBuffer,
    private readonly data: ArrayBuffer,
    public pos: number,
  ) {}

  private align8(): void {
    this.pos = (this.pos + 7) & ~7;
  }

  column(n: number): unknown[] {
    const b = this.b;
    const type = b[this.pos++] as Col;
    const nullMask = b[this.pos++] === 1 ? b.subarray(this.pos, (this.pos += n)) : undefined;
    const values = new Array<unknown>(n);
    switch (type) {
      case Col.I64: {
        this.align8();
        const a = new BigInt64Array(this.data, this.pos, n);
        for (let i = 0; i < n; i++) values[i] = nullMask?.[i] === 1 ? null : a[i];
        this.pos += 8 * n;
        return values;
      }
      case Col.F64: {
        this.align8();
        const a = new Float64Array(this.data, this.pos, n);
        for (let i = 0; i < n; i++) values[i] = nullMask?.[i] === 1 ? null : a[i];
        this.pos += 8 * n;
        return values;
      }
      case Col.STR: {
        const ascii = b[this.pos++] === 1;
        const length = b.readUInt32LE(this.pos);
        this.pos += 4;
        this.align8();
        const offsets = new Uint32Array(this.data, this.pos, n + 1);
        this.pos += 4 * (n + 1);
        const base = this.pos;
        // ASCII text is decoded once for the column and cut into strings: byte offsets are unit offsets.
        const block = ascii ? b.latin1Slice(base, base + length) : undefined;
        for (let i = 0; i < n; i++) {
          if (nullMask?.[i] === 1) values[i] = null;
          else if (block !== undefined) values[i] = block.substring(offsets[i]!, offsets[i + 1]!);
          else values[i] = b.utf8Slice(base + offsets[i]!, base + offsets[i + 1]!);
        }
        this.pos += length;
        return values;
      }
      case Col.ROW: {
        const arity = b.readUInt32LE(this.pos);
        this.pos += 4;
        for (let i = 0; i < n; i++) values[i] = nullMask?.[i] === 1 ? null : new Array<unknown>(arity);
        for (let k = 0; k < arity; k++) {
          const field = this.column(n);
          for (let i = 0; i < n; i++) {
            const v = values[i] as unknown[] | null;
            if (v !== null) v[k] = field[i];
          }
        }
        return values;
      }
      case Col.STATE: {
        const length = b.readUInt32LE(this.pos);
        this.pos += 4;
        const decoded = decodeState(b.subarray(this.pos, this.pos + length)) as unknown[];
        this.pos += length;
        return decoded;
      }
      default:
        throw new ExecutionError(`A batch from another worker thread is corrupt: unknown column type ${String(type)}.`);
    }
  }
}
