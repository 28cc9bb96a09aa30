import { FieldValueError } from '../format-error.js';

const MIN_INT32 = -2147483648;
const MAX_INT32 = 2147483647;

/** Appends Avro binary encoding (zig-zag varints, little-endian floats) to a growable buffer. */
export class AvroWriter {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** The bytes written since the last reset, copied out; the writer is reset. */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.pos);
    this.pos = 0;
    return out;
  }

  writeBoolean(v: boolean): void {
    this.ensure(1);
    this.buf[this.pos++] = v ? 1 : 0;
  }

  /** A 32-bit int (also longs within that range: their zig-zag varints are the same bytes). */
  writeInt(n: number): void {
    this.ensure(5);
    let z = ((n << 1) ^ (n >> 31)) >>> 0;
    while (z > 0x7f) {
      this.buf[this.pos++] = (z & 0x7f) | 0x80;
      z >>>= 7;
    }
    this.buf[this.pos++] = z;
  }

  writeLong(v: bigint | number): void {
    if (typeof v === 'number') {
      if (v >= MIN_INT32 && v <= MAX_INT32) return this.writeInt(v);
      v = BigInt(v);
    } else if (v >= -2147483648n && v <= 2147483647n) return this.writeInt(Number(v));
    this.ensure(10);
    let z = BigInt.asUintN(64, (v << 1n) ^ (v >> 63n));
    while (z > 0x7fn) {
      this.buf[this.pos++] = Number(z & 0x7fn) | 0x80;
      z >>= 7n;
    }
    this.buf[this.pos++] = Number(z);
  }

  writeFloat(v: number): void {
    this.ensure(4);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }

  writeDouble(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  writeBytes(b: Uint8Array): void {
    this.writeInt(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  writeString(s: string): void {
    // Worst case 3 bytes per UTF-16 unit; encodeInto writes in place, then the length goes in front.
    const max = s.length * 3;
    this.ensure(max + 5);
    const lenPos = this.pos;
    const r = encoder.encodeInto(s, this.buf.subarray(lenPos + 5, lenPos + 5 + max));
    const written = r.written;
    this.writeInt(written);
    this.buf.copyWithin(this.pos, lenPos + 5, lenPos + 5 + written);
    this.pos += written;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/** Reads Avro binary encoding from one message; every read checks bounds and throws FieldValueError. */
export class AvroReader {
  pos = 0;
  private readonly view: DataView;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new FieldValueError(`unexpected end of Avro data at byte ${this.pos}.`);
  }

  readBoolean(): boolean {
    this.need(1);
    return this.buf[this.pos++] !== 0;
  }

  readInt(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      this.need(1);
      const b = this.buf[this.pos++]!;
      result |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7;
      if (shift > 28) throw new FieldValueError(`Avro int longer than 5 bytes at byte ${this.pos}.`);
    }
    return (result >>> 1) ^ -(result & 1);
  }

  readLong(): bigint {
    let result = 0n;
    let shift = 0n;
    let small = 0;
    let smallShift = 0;
    for (;;) {
      this.need(1);
      const b = this.buf[this.pos++]!;
      if (smallShift < 28) {
        small |= (b & 0x7f) << smallShift;
        smallShift += 7;
        if ((b & 0x80) === 0) return BigInt((small >>> 1) ^ -(small & 1));
        continue;
      }
      if (shift === 0n) {
        result = BigInt(small >>> 0);
        shift = 28n;
      }
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7n;
      if (shift > 63n) throw new FieldValueError(`Avro long longer than 10 bytes at byte ${this.pos}.`);
    }
    return (result >> 1n) ^ -(result & 1n);
  }

  readFloat(): number {
    this.need(4);
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  readDouble(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  readBytes(): Uint8Array {
    const n = this.readLength();
    const out = this.buf.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A `fixed` of `n` bytes (no length prefix), copied out. */
  readFixed(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  readString(): string {
    const n = this.readLength();
    const s = decoder.decode(this.buf.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }

  /** A block count of an array or map; a negative count is followed by the block's byte size. */
  readBlockCount(): number {
    let n = Number(this.readLong());
    if (n < 0) {
      this.readLong();
      n = -n;
    }
    return n;
  }

  private readLength(): number {
    const n = Number(this.readLong());
    if (n < 0) throw new FieldValueError(`negative Avro length ${n} at byte ${this.pos}.`);
    this.need(n);
    return n;
  }
}
