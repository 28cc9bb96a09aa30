import { ConnectorError } from '../../../errors/sluice-error.js';

/**
 * Big-endian encoding helpers for the segment-store wire protocol (Java DataOutput conventions): longs are 8 fixed
 * bytes, strings are Java `writeUTF` (uint16 length + modified UTF-8), UUIDs are msb then lsb.
 */
export class WireWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(initial = 256) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  get length(): number {
    return this.pos;
  }

  int32(v: number): this {
    this.ensure(4);
    this.buf.writeInt32BE(v, this.pos);
    this.pos += 4;
    return this;
  }

  /** Writes a signed 64-bit value; numbers must be safe integers. */
  int64(v: number | bigint): this {
    this.ensure(8);
    this.buf.writeBigInt64BE(typeof v === 'bigint' ? BigInt.asIntN(64, v) : BigInt(v), this.pos);
    this.pos += 8;
    return this;
  }

  bool(v: boolean): this {
    this.ensure(1);
    this.buf[this.pos++] = v ? 1 : 0;
    return this;
  }

  byte(v: number): this {
    this.ensure(1);
    this.buf.writeInt8(v, this.pos++);
    return this;
  }

  /** A UUID given as its canonical 36-character text. */
  uuid(v: string): this {
    const hex = v.replace(/-/g, '');
    this.ensure(16);
    this.buf.write(hex, this.pos, 16, 'hex');
    this.pos += 16;
    return this;
  }

  utf(v: string): this {
    const encoded = encodeModifiedUtf8(v);
    if (encoded.length > 0xffff) throw new ConnectorError(`string of ${encoded.length} bytes is too long for the Pravega wire protocol`);
    this.ensure(2 + encoded.length);
    this.buf.writeUInt16BE(encoded.length, this.pos);
    this.pos += 2;
    encoded.copy(this.buf, this.pos);
    this.pos += encoded.length;
    return this;
  }

  bytes(v: Uint8Array): this {
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
    return this;
  }

  /** Overwrites an int32 at an earlier position (used to patch frame lengths). */
  patchInt32(at: number, v: number): void {
    this.buf.writeInt32BE(v, at);
  }

  toBuffer(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

/** Reads one frame's payload; reading past the end yields the protocol's defaults for missing trailing fields. */
export class WireReader {
  private pos = 0;

  constructor(private readonly buf: Buffer) {}

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number, what: string): void {
    if (this.pos + n > this.buf.length) throw new ConnectorError(`truncated Pravega wire frame while reading ${what}`);
  }

  int32(): number {
    this.need(4, 'int32');
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  /** A long as a number; Pravega offsets, ids and event numbers stay far below 2^53 except sentinel values. */
  int64(): number {
    return Number(this.int64Big());
  }

  int64Big(): bigint {
    this.need(8, 'int64');
    const v = this.buf.readBigInt64BE(this.pos);
    this.pos += 8;
    return v;
  }

  /** Trailing request ids are optional on the wire; -1 when absent. */
  optionalInt64(): number {
    return this.remaining >= 8 ? this.int64() : -1;
  }

  bool(): boolean {
    this.need(1, 'bool');
    return this.buf[this.pos++] !== 0;
  }

  uuid(): string {
    this.need(16, 'uuid');
    const h = this.buf.toString('hex', this.pos, this.pos + 16);
    this.pos += 16;
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  utf(): string {
    this.need(2, 'string length');
    const n = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    this.need(n, 'string');
    const s = decodeModifiedUtf8(this.buf.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }

  /** An int32-length-prefixed blob; the returned view shares the frame's memory. */
  blob(): Buffer {
    const n = this.int32();
    this.need(n, 'blob');
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  rest(): Buffer {
    const v = this.buf.subarray(this.pos);
    this.pos = this.buf.length;
    return v;
  }
}

/** Java modified UTF-8: NUL as C0 80, characters outside the BMP as two 3-byte surrogates. */
export function encodeModifiedUtf8(s: string): Buffer {
  let simple = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 || c > 0x7f) {
      simple = false;
      break;
    }
  }
  if (simple) return Buffer.from(s, 'latin1');
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0 && c <= 0x7f) out.push(c);
    else if (c <= 0x7ff) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Buffer.from(out);
}

export function decodeModifiedUtf8(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c < 0x80) {
      s += String.fromCharCode(c);
      i += 1;
    } else if ((c & 0xe0) === 0xc0) {
      s += String.fromCharCode(((c & 0x1f) << 6) | (b[i + 1]! & 0x3f));
      i += 2;
    } else {
      s += String.fromCharCode(((c & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f));
      i += 3;
    }
  }
  return s;
}
