import { writeSync } from 'node:fs';
import { Row } from '../../types/row.js';
import { stateClassOf, type StateClass } from './state-classes.js';
import { FORMAT_VERSION, MAGIC, Tag, VARINT_INT_LIMIT } from './state-format.js';

/** Node's native Buffer writers, faster than `write(s, pos, 'utf8')` (no encoding switch); untyped in @types/node. */
interface FastBuffer extends Buffer {
  utf8Write(s: string, offset: number): number;
  latin1Write(s: string, offset: number): number;
}

/** A value the format cannot hold (an unregistered class, a function, a symbol, a cycle); turned into an ExecutionError with its path. */
export class UnsupportedStateValue extends Error {
  constructor(
    readonly value: unknown,
    readonly reason: 'unsupported' | 'cycle',
  ) {
    super(reason);
  }
}

/**
 * Entries the encoder writes as a Map (the same bytes a Map of them gives, so it decodes as a Map) while
 * drawing them from `pairs`, one at a time: a snapshot of an on-disk state backend never holds all its
 * decoded entries at once. `pairs` is iterated once, when encoded; the Map's size goes before the entries
 * in the format, so it is filled in after them.
 */
export class StreamedMap<K = unknown, V = unknown> implements Iterable<readonly [K, V]> {
  constructor(private readonly pairs: Iterable<readonly [K, V]>) {}

  [Symbol.iterator](): Iterator<readonly [K, V]> {
    return this.pairs[Symbol.iterator]();
  }
}

/**
 * Items the encoder writes as an Array (the same bytes, so it decodes as an Array) while drawing them from
 * `items`, one at a time, as `StreamedMap` does for a Map: a snapshot of an on-disk state backend cuts a
 * state into records of at most a shard's entries as it reads the store, so it need not count the entries
 * first (a pass over the whole store) to know how many records there are.
 */
export class StreamedArray<T = unknown> implements Iterable<T> {
  constructor(private readonly items: Iterable<T>) {}

  [Symbol.iterator](): Iterator<T> {
    return this.items[Symbol.iterator]();
  }
}

/**
 * A byte array of `length` bytes that is not in memory (an operator snapshot written to a file at the
 * barrier): `encodeStatePieces` writes its tag and length and hands it out as a piece of its own, for the
 * writer of the pieces to copy from `source`. Anywhere else it is an unsupported value.
 */
export class ExternalBytes {
  constructor(
    readonly length: number,
    readonly source: string,
  ) {}
}

/** Bytes of the unsigned LEB128 of any count below 2^53. */
const MAX_COUNT_BYTES = 8;

const BIG_LIMIT = BigInt(VARINT_INT_LIMIT);
const WORD_BITS = 64n;
/** Ancestors are tracked (for cycle detection) only below this depth: real state trees are shallower. */
const CYCLE_CHECK_DEPTH = 64;
/** Short strings are checked for ASCII and copied in JavaScript: cheaper than a native call. */
const SHORT_STRING = 64;
/** The scratch buffer is kept between checkpoints up to this size; a larger one is let go after use. */
const KEEP_SCRATCH = 16 << 20;
/**
 * From this size the buffer no longer doubles (copying all it holds): a full one is set aside as a chunk and
 * writing goes on in a fresh one. Encoding a GB of state then holds it once, plus the final copy into one
 * buffer, instead of up to three times (a doubled buffer, the copy into it, the copy out).
 */
const CHUNK_BYTES = 8 << 20;

let scratch: FastBuffer | undefined = Buffer.allocUnsafeSlow(64 << 10) as FastBuffer;

function isWellFormed(s: string): boolean {
  return (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/**
 * Writes one state tree in format version 1 (docs/state-format.md) into a single growing buffer: no
 * per-value allocation except the object key lists and the words of bigints beyond 2^52.
 */
class StateEncoder {
  buf: FastBuffer;
  pos = 0;
  private depth = 0;
  private ancestors: Set<object> | undefined;
  private readonly classIds = new Map<StateClass, number>();
  /** With `encodeStatePieces`: the pieces so far, and the size from which a byte array becomes one. */
  pieces: Array<Uint8Array | ExternalBytes> | undefined;
  gatherBytes = Infinity;
  /** Streamed Maps being encoded: their count is patched in place afterwards, so no piece may be cut inside one. */
  private streaming = 0;
  /** Bytes encoded before `buf`, in order (views of full buffers set aside; see CHUNK_BYTES). */
  chunks: Buffer[] = [];
  /**
   * Where the counts of the streamed Maps being encoded go: a buffer (`buf` or a chunk) and an offset in it,
   * or (`buf` undefined) an offset in `file`, its buffer written out already.
   */
  private readonly counts: Array<{ buf: Buffer | undefined; at: number }> = [];
  /** With `encodeStateToFile`: the file each full buffer is written to, and how many bytes it holds so far. */
  file: { readonly fd: number; written: number } | undefined;

  constructor(buf: FastBuffer) {
    this.buf = buf;
  }

  /** With `file`: writes what `buf` holds at the end of the file, and empties `buf`. */
  flush(): void {
    const f = this.file!;
    for (let at = 0; at < this.pos; ) at += writeSync(f.fd, this.buf, at, this.pos - at, f.written + at);
    f.written += this.pos;
    this.pos = 0;
  }

  /** Ends the current piece: the chunks as they are, then a copy of what `buf` holds since the last piece. */
  cut(): void {
    this.pieces!.push(...this.chunks);
    this.chunks = [];
    const out = Buffer.allocUnsafeSlow(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.pieces!.push(out);
    this.pos = 0;
  }

  /** Everything encoded, in one buffer of its own (never the scratch buffer, never a slice of Node's pool). */
  output(): Buffer {
    const out = Buffer.allocUnsafeSlow(this.chunks.reduce((n, c) => n + c.length, 0) + this.pos);
    let at = 0;
    for (const c of this.chunks) at += c.copy(out, at);
    this.buf.copy(out, at, 0, this.pos);
    return out;
  }

  private ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  private grow(n: number): void {
    const old = this.buf;
    if (this.file !== undefined && this.pos > 0) {
      // Written out and reused: a snapshot written to a file holds one buffer of it at a time.
      const f = this.file;
      for (const c of this.counts) {
        if (c.buf !== old) continue;
        c.buf = undefined;
        c.at += f.written;
      }
      this.flush();
      if (n > old.length) this.buf = Buffer.allocUnsafeSlow(n) as FastBuffer;
      return;
    }
    if (old.length >= CHUNK_BYTES && this.pos > 0) {
      const full = old.subarray(0, this.pos);
      this.chunks.push(full);
      this.buf = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, n)) as FastBuffer;
      this.pos = 0;
      for (const c of this.counts) if (c.buf === old) c.buf = full;
      return;
    }
    const next = Buffer.allocUnsafeSlow(Math.max(old.length * 2, this.pos + n)) as FastBuffer;
    old.copy(next, 0, 0, this.pos);
    this.buf = next;
    for (const c of this.counts) if (c.buf === old) c.buf = next;
  }

  /** Unsigned LEB128 of an integer in [0, 2^53); the caller ensured 8 bytes of room. */
  private uvarint(n: number): void {
    const b = this.buf;
    let p = this.pos;
    if (n < 0x10000000) {
      while (n >= 0x80) {
        b[p++] = (n & 0x7f) | 0x80;
        n >>>= 7;
      }
    } else {
      while (n >= 0x80) {
        b[p++] = (n % 0x80) | 0x80;
        n = Math.floor(n / 0x80);
      }
    }
    b[p++] = n;
    this.pos = p;
  }

  header(): void {
    this.ensure(8);
    for (const m of MAGIC) this.buf[this.pos++] = m;
    this.uvarint(FORMAT_VERSION);
  }

  value(v: unknown): void {
    switch (typeof v) {
      case 'number':
        return this.number(v);
      case 'string':
        return this.string(v);
      case 'bigint':
        return this.bigint(v);
      case 'object':
        if (v === null) return this.tag(Tag.NULL);
        return this.object(v);
      case 'boolean':
        return this.tag(v ? Tag.TRUE : Tag.FALSE);
      case 'undefined':
        return this.tag(Tag.UNDEFINED);
      default:
        throw new UnsupportedStateValue(v, 'unsupported');
    }
  }

  private tag(t: number): void {
    this.ensure(1);
    this.buf[this.pos++] = t;
  }

  private number(v: number): void {
    this.ensure(10);
    // (v | 0) === v is the cheap int32 test; -0 passes it, so it goes on to FLOAT64 through the sign test.
    if (((v | 0) === v && (v !== 0 || 1 / v > 0)) || (v !== 0 && v > -VARINT_INT_LIMIT && v < VARINT_INT_LIMIT && Number.isInteger(v))) {
      this.buf[this.pos++] = Tag.INT;
      this.uvarint(v >= 0 ? v * 2 : -v * 2 - 1);
    } else {
      this.buf[this.pos++] = Tag.FLOAT64;
      this.buf.writeDoubleLE(v, this.pos);
      this.pos += 8;
    }
  }

  string(s: string): void {
    const n = s.length;
    if (n < SHORT_STRING) {
      // Room for the tag, a varint and the longest form (3 UTF-8 bytes per code unit).
      this.ensure(9 + 3 * n);
      const b = this.buf;
      const p = this.pos + 2;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        b[p + i] = c;
      }
      if (i === n) {
        b[this.pos] = Tag.STRING_ASCII;
        b[this.pos + 1] = n;
        this.pos = p + n;
        return;
      }
    }
    // A non-ASCII code unit takes at least 2 UTF-8 bytes (a lone surrogate 3), so equal lengths mean ASCII.
    const bytes = Buffer.byteLength(s, 'utf8');
    this.ensure(9 + Math.max(bytes, 2 * n));
    const b = this.buf;
    if (bytes === n) {
      b[this.pos++] = Tag.STRING_ASCII;
      this.uvarint(n);
      this.pos += b.latin1Write(s, this.pos);
    } else if (isWellFormed(s)) {
      b[this.pos++] = Tag.STRING_UTF8;
      this.uvarint(bytes);
      this.pos += b.utf8Write(s, this.pos);
    } else {
      // UTF-8 cannot carry a lone surrogate (the encoder would replace it with U+FFFD): keep the code units.
      b[this.pos++] = Tag.STRING_UTF16;
      this.uvarint(n);
      let p = this.pos;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        b[p++] = c & 0xff;
        b[p++] = c >>> 8;
      }
      this.pos = p;
    }
  }

  private bigint(v: bigint): void {
    if (v > -BIG_LIMIT && v < BIG_LIMIT) {
      const n = Number(v);
      this.ensure(10);
      this.buf[this.pos++] = Tag.BIGINT;
      this.uvarint(n >= 0 ? n * 2 : -n * 2 - 1);
      return;
    }
    let m = v < 0n ? -v : v;
    const words: bigint[] = [];
    while (m > 0n) {
      words.push(BigInt.asUintN(64, m));
      m >>= WORD_BITS;
    }
    this.ensure(10 + 8 * words.length);
    this.buf[this.pos++] = v < 0n ? Tag.BIGINT_NEG : Tag.BIGINT_POS;
    this.uvarint(words.length);
    for (const w of words) {
      this.buf.writeBigUInt64LE(w, this.pos);
      this.pos += 8;
    }
  }

  private object(v: object): void {
    if (++this.depth > CYCLE_CHECK_DEPTH) {
      this.ancestors ??= new Set();
      if (this.ancestors.has(v)) throw new UnsupportedStateValue(v, 'cycle');
      this.ancestors.add(v);
    }
    const proto = Object.getPrototypeOf(v) as object | null;
    if (proto === Array.prototype) this.array(v as unknown[]);
    else if (proto === Row.prototype) this.row(v as Row);
    else if (proto === Object.prototype || proto === null) this.plain(v as Record<string, unknown>);
    else if (proto === Map.prototype) this.map(v as Map<unknown, unknown>);
    else this.other(v, proto);
    if (this.depth-- > CYCLE_CHECK_DEPTH) this.ancestors!.delete(v);
  }

  /** Registered classes first (a registered subclass of Map stays itself), then the built-in kinds by instanceof. */
  private other(v: object, proto: object | null): void {
    if (v instanceof StreamedMap) return this.streamed(Tag.MAP, v);
    if (v instanceof StreamedArray) return this.streamed(Tag.ARRAY, v);
    const c = stateClassOf(v, proto);
    if (c) return this.registered(c, v);
    if (v instanceof Uint8Array) return this.bytes(v);
    if (v instanceof ExternalBytes && this.pieces !== undefined && this.streaming === 0) return this.external(v);
    if (Array.isArray(v)) return this.array(v as unknown[]);
    if (v instanceof Row) return this.row(v);
    if (v instanceof Map) return this.map(v as Map<unknown, unknown>);
    if (v instanceof Set) return this.set(v as Set<unknown>);
    if (v instanceof Date) {
      this.ensure(9);
      this.buf[this.pos++] = Tag.DATE;
      this.buf.writeDoubleLE(v.getTime(), this.pos);
      this.pos += 8;
      return;
    }
    throw new UnsupportedStateValue(v, 'unsupported');
  }

  private array(a: readonly unknown[]): void {
    const n = a.length;
    this.ensure(9);
    this.buf[this.pos++] = Tag.ARRAY;
    this.uvarint(n);
    for (let i = 0; i < n; i++) this.value(a[i]);
  }

  private row(r: Row): void {
    const f = r.fields;
    const n = f.length;
    this.ensure(10);
    this.buf[this.pos++] = Tag.ROW;
    this.buf[this.pos++] = r.kind;
    this.uvarint(n);
    for (let i = 0; i < n; i++) this.value(f[i]);
  }

  private plain(o: Record<string, unknown>): void {
    const keys = Object.keys(o);
    const n = keys.length;
    this.ensure(9);
    this.buf[this.pos++] = Tag.OBJECT;
    this.uvarint(n);
    for (let i = 0; i < n; i++) {
      const k = keys[i]!;
      this.string(k);
      this.value(o[k]);
    }
  }

  private map(m: Map<unknown, unknown>): void {
    this.ensure(9);
    this.buf[this.pos++] = Tag.MAP;
    this.uvarint(m.size);
    m.forEach((x, k) => {
      this.value(k);
      this.value(x);
    });
  }

  /**
   * As `map` (or `array`), with room for the largest count left before the entries and closed up once the
   * count is known.
   */
  private streamed(tag: number, m: StreamedMap | StreamedArray): void {
    this.ensure(1 + MAX_COUNT_BYTES);
    this.buf[this.pos++] = tag;
    const count = { buf: this.buf as Buffer, at: this.pos };
    this.counts.push(count);
    this.pos += MAX_COUNT_BYTES;
    let n = 0;
    this.streaming++;
    try {
      if (m instanceof StreamedMap) {
        for (const [k, x] of m) {
          this.value(k);
          this.value(x);
          n++;
        }
      } else {
        for (const x of m) {
          this.value(x);
          n++;
        }
      }
    } finally {
      this.streaming--;
      this.counts.pop();
    }
    let len = 1;
    for (let x = n; x >= 0x80; x = Math.floor(x / 0x80)) len++;
    const { buf, at } = count;
    if (buf === undefined) {
      // Already in the file: the count fills its whole room, as a varint padded with continuation bytes
      // (0x80 | 0 groups), which the decoder reads as the same number.
      const padded = Buffer.alloc(MAX_COUNT_BYTES);
      let x = n;
      for (let i = 0; i < MAX_COUNT_BYTES - 1; i++) {
        padded[i] = (x % 0x80) | 0x80;
        x = Math.floor(x / 0x80);
      }
      padded[MAX_COUNT_BYTES - 1] = x;
      const f = this.file!;
      for (let w = 0; w < MAX_COUNT_BYTES; ) w += writeSync(f.fd, padded, w, MAX_COUNT_BYTES - w, at + w);
      return;
    }
    if (buf === this.buf) {
      // Still in the buffer being written: the entries move up over the unused room.
      const end = this.pos;
      this.buf.copyWithin(at + len, at + MAX_COUNT_BYTES, end);
      this.pos = at;
      this.uvarint(n);
      this.pos = end - (MAX_COUNT_BYTES - len);
      return;
    }
    // In a chunk set aside: the count goes at the end of its room, and the chunk becomes two views that
    // leave the unused room out, so the bytes are those of a Map all the same.
    const from = at + MAX_COUNT_BYTES - len;
    let p = from;
    let x = n;
    while (x >= 0x80) {
      buf[p++] = (x % 0x80) | 0x80;
      x = Math.floor(x / 0x80);
    }
    buf[p] = x;
    const k = this.chunks.indexOf(buf);
    const head = buf.subarray(0, at);
    this.chunks.splice(k, 1, head, buf.subarray(from));
    // An enclosing streamed Map's count lies before this one's, in the head.
    for (const c of this.counts) if (c.buf === buf) c.buf = head;
  }

  private set(s: Set<unknown>): void {
    this.ensure(9);
    this.buf[this.pos++] = Tag.SET;
    this.uvarint(s.size);
    s.forEach((x) => this.value(x));
  }

  private bytes(u: Uint8Array): void {
    const n = u.byteLength;
    if (n >= this.gatherBytes && this.streaming === 0) {
      this.ensure(9);
      this.buf[this.pos++] = Tag.BYTES;
      this.uvarint(n);
      this.cut();
      this.pieces!.push(u);
      return;
    }
    this.ensure(9 + n);
    this.buf[this.pos++] = Tag.BYTES;
    this.uvarint(n);
    this.buf.set(u, this.pos);
    this.pos += n;
  }

  /** Bytes written as a piece of their own that the writer of the pieces reads from elsewhere (a file). */
  private external(x: ExternalBytes): void {
    this.ensure(9);
    this.buf[this.pos++] = Tag.BYTES;
    this.uvarint(x.length);
    this.cut();
    this.pieces!.push(x);
  }

  private registered(c: StateClass, v: object): void {
    const id = this.classIds.get(c);
    if (id === undefined) {
      this.classIds.set(c, this.classIds.size);
      this.tag(Tag.CLASS_DEF);
      this.string(c.name);
    } else {
      this.ensure(9);
      this.buf[this.pos++] = Tag.CLASS_REF;
      this.uvarint(id);
    }
    this.value(c.toPlain(v));
  }
}

/**
 * Encodes `value` with the header. Throws `UnsupportedStateValue` (or a RangeError when nested past the
 * stack) for the caller to turn into a user-facing error.
 */
export function encodeStateV1(value: unknown): Buffer {
  // A registered class's toPlain could itself encode state: the scratch buffer is taken, not shared.
  const taken = scratch;
  scratch = undefined;
  const e = new StateEncoder(taken ?? (Buffer.allocUnsafeSlow(1 << 10) as FastBuffer));
  try {
    e.header();
    e.value(value);
    // Its own ArrayBuffer, never a slice of Node's shared pool: callers may keep or transfer `.buffer`.
    return e.output();
  } finally {
    // Not `taken` when the buffer grew: it may be a chunk, handed out as a piece and not yet written.
    if (e.buf.length <= KEEP_SCRATCH) scratch = e.buf;
    else if (taken && e.chunks.length === 0 && e.pieces === undefined) scratch = taken;
  }
}

/**
 * `encodeStateV1`'s bytes as pieces to write one after the other: byte arrays of `gatherBytes` or more
 * are pieces of their own, not copied (the caller must not change them until written). A checkpoint file
 * wraps operators' encoded state, which can be a GB for state larger than memory: copied into one buffer
 * it would take that memory two or three times more for the moment.
 */
export function encodeStatePieces(value: unknown, gatherBytes: number): Array<Uint8Array | ExternalBytes> {
  const taken = scratch;
  scratch = undefined;
  const e = new StateEncoder(taken ?? (Buffer.allocUnsafeSlow(1 << 10) as FastBuffer));
  e.pieces = [];
  e.gatherBytes = gatherBytes;
  try {
    e.header();
    e.value(value);
    e.cut();
    return e.pieces;
  } finally {
    // Not `taken` when the buffer grew: it may be a chunk, handed out as a piece and not yet written.
    if (e.buf.length <= KEEP_SCRATCH) scratch = e.buf;
    else if (taken && e.chunks.length === 0 && e.pieces === undefined) scratch = taken;
  }
}

/**
 * One value in format version 1 without the header, after `reserve` bytes left for the caller: a view of
 * the shared scratch buffer, valid until the next encode, so encoding allocates nothing. For a store that
 * copies the bytes at once and never keeps them past this process (the lmdb state backend's entries).
 *
 * @throws UnsupportedStateValue as `encodeStateV1`.
 */
export function encodeStateBody(value: unknown, reserve: number): Buffer {
  const taken = scratch;
  scratch = undefined;
  const e = new StateEncoder(taken ?? (Buffer.allocUnsafeSlow(1 << 10) as FastBuffer));
  try {
    e.pos = reserve;
    e.value(value);
    // A value of more than CHUNK_BYTES was set aside in chunks: gathered (the reserved room included).
    return e.chunks.length === 0 ? e.buf.subarray(0, e.pos) : e.output();
  } finally {
    // Not `taken` when the buffer grew: it may be a chunk, handed out as a piece and not yet written.
    if (e.buf.length <= KEEP_SCRATCH) scratch = e.buf;
    else if (taken && e.chunks.length === 0 && e.pieces === undefined) scratch = taken;
  }
}

/** Bytes a snapshot written to a file is written in: big enough for few writes, small beside the state. */
const FILE_BUFFER_BYTES = 4 << 20;

/**
 * `encodeStateV1`'s bytes written to the file open as `fd` (from its start) as they are encoded, one
 * buffer of `bufferBytes` (tests use a few) at a time, so that an operator snapshot of an on-disk state backend (a GB at
 * 50 M keys) is never held in memory whole. The bytes decode as `encodeStateV1`'s; they differ only where a
 * streamed Map's count was written out before the count was known (padded to its room). Returns the length.
 *
 * @throws UnsupportedStateValue as `encodeStateV1`; whatever writing the file throws
 */
export function encodeStateToFile(value: unknown, fd: number, bufferBytes = FILE_BUFFER_BYTES): number {
  const e = new StateEncoder(Buffer.allocUnsafeSlow(bufferBytes) as FastBuffer);
  e.file = { fd, written: 0 };
  e.header();
  e.value(value);
  e.flush();
  return e.file.written;
}
