import { ExecutionError } from '../../errors/sluice-error.js';
import { Row } from '../../types/row.js';
import type { RowKind } from '../../types/row-kind.js';
import { stateClassByName, type StateClass } from './state-classes.js';
import { Tag } from './state-format.js';

/** Node's native Buffer readers (no encoding switch); untyped in @types/node. */
interface FastBuffer extends Buffer {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
  ucs2Slice(start: number, end: number): string;
}

/**
 * Reads one value of format version 1 (docs/state-format.md). Every read is bounds-checked, so truncated
 * or corrupt bytes give an ExecutionError naming the offset, never a RangeError or a partial value.
 */
export class StateDecoder {
  private readonly b: FastBuffer;
  private readonly classes: StateClass[] = [];

  constructor(
    data: Uint8Array,
    public pos: number,
  ) {
    // A Buffer is used as it is: a new view per decode costs more than the decode of a small value
    // (the lmdb backend decodes one per entry it reads).
    this.b = (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength)) as FastBuffer;
  }

  get end(): number {
    return this.b.length;
  }

  truncated(): ExecutionError {
    return new ExecutionError(
      `Cannot read checkpointed state: the data ends at byte ${this.b.length} in the middle of a value; the state file is truncated or corrupt.`,
    );
  }

  corrupt(what: string, at = this.pos): ExecutionError {
    return new ExecutionError(`Cannot read checkpointed state: ${what} at byte ${at}; the state file is corrupt.`);
  }

  private byte(): number {
    if (this.pos >= this.b.length) throw this.truncated();
    return this.b[this.pos++]!;
  }

  /** `n` more bytes must exist; returns where they start. */
  private take(n: number): number {
    const p = this.pos;
    if (n > this.b.length - p) throw this.truncated();
    this.pos = p + n;
    return p;
  }

  /** A count of items that each take at least `minBytes`: larger than the rest of the data means corrupt. */
  private count(minBytes: number): number {
    const at = this.pos;
    const n = this.uvarint();
    const rest = this.b.length - this.pos;
    if (n * minBytes > rest) {
      throw new ExecutionError(
        `Cannot read checkpointed state: byte ${at} gives a length of ${n} but only ${rest} bytes follow; the state file is truncated or corrupt.`,
      );
    }
    return n;
  }

  uvarint(): number {
    const b = this.b;
    const end = b.length;
    let p = this.pos;
    if (p >= end) throw this.truncated();
    let x = b[p++]!;
    if (x < 0x80) {
      this.pos = p;
      return x;
    }
    let result = x & 0x7f;
    let mul = 0x80;
    for (;;) {
      if (p >= end) throw this.truncated();
      x = b[p++]!;
      result += (x & 0x7f) * mul;
      if (x < 0x80) break;
      mul *= 0x80;
      if (mul > 2 ** 49) throw this.corrupt('a varint longer than 53 bits', this.pos);
    }
    this.pos = p;
    return result;
  }

  private zigzag(): number {
    const z = this.uvarint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  value(): unknown {
    const at = this.pos;
    const t = this.byte();
    switch (t) {
      case Tag.ROW:
        return this.row();
      case Tag.ARRAY: {
        const n = this.count(1);
        const a: unknown[] = [];
        for (let i = 0; i < n; i++) a.push(this.value());
        return a;
      }
      case Tag.INT:
        return this.zigzag();
      case Tag.BIGINT:
        return BigInt(this.zigzag());
      case Tag.STRING_ASCII:
      case Tag.STRING_UTF8:
      case Tag.STRING_UTF16:
        return this.stringBody(t);
      case Tag.NULL:
        return null;
      case Tag.FLOAT64:
        return this.b.readDoubleLE(this.take(8));
      case Tag.OBJECT:
        return this.object();
      case Tag.MAP: {
        const n = this.count(2);
        const m = new Map<unknown, unknown>();
        for (let i = 0; i < n; i++) {
          const k = this.value();
          m.set(k, this.value());
        }
        return m;
      }
      case Tag.SET: {
        const n = this.count(1);
        const s = new Set<unknown>();
        for (let i = 0; i < n; i++) s.add(this.value());
        return s;
      }
      case Tag.UNDEFINED:
        return undefined;
      case Tag.FALSE:
        return false;
      case Tag.TRUE:
        return true;
      case Tag.BIGINT_POS:
      case Tag.BIGINT_NEG: {
        const n = this.count(8);
        const p = this.take(n * 8);
        let m = 0n;
        for (let i = n - 1; i >= 0; i--) m = (m << 64n) | this.b.readBigUInt64LE(p + i * 8);
        return t === Tag.BIGINT_NEG ? -m : m;
      }
      case Tag.BYTES: {
        const n = this.count(1);
        const p = this.take(n);
        // A copy: the decoded value must not pin (or alias) the whole file's buffer.
        const u = new Uint8Array(n);
        u.set(this.b.subarray(p, p + n));
        return u;
      }
      case Tag.DATE:
        return new Date(this.b.readDoubleLE(this.take(8)));
      case Tag.CLASS_DEF: {
        const nameAt = this.pos;
        const name = this.string();
        const c = stateClassByName(name);
        if (!c) {
          throw new ExecutionError(
            `Cannot read checkpointed state: it holds a value of class '${name}' (byte ${nameAt}) that is not registered with registerStateClass; load the module that registers it before restoring.`,
          );
        }
        this.classes.push(c);
        return this.rebuild(c, at);
      }
      case Tag.CLASS_REF: {
        const i = this.uvarint();
        const c = this.classes[i];
        if (!c) throw this.corrupt(`a reference to class #${i}, which was never defined`, at);
        return this.rebuild(c, at);
      }
      default:
        throw this.corrupt(`unknown value tag 0x${t.toString(16).padStart(2, '0')}`, at);
    }
  }

  /** A registered class from its plain value; a `fromPlain` that rejects the value means corrupt bytes. */
  private rebuild(c: StateClass, at: number): unknown {
    const plain = this.value();
    try {
      return c.fromPlain(plain);
    } catch (e) {
      if (e instanceof ExecutionError) throw e;
      throw new ExecutionError(
        `Cannot read checkpointed state: the value of class '${c.name}' at byte ${at} cannot be rebuilt (${(e as Error).message}); the state file is corrupt.`,
        { cause: e },
      );
    }
  }

  private row(): Row {
    const at = this.pos;
    const kind = this.byte();
    if (kind > 3) throw this.corrupt(`a row kind ${kind} (expected 0..3)`, at);
    const n = this.count(1);
    const fields: unknown[] = [];
    for (let i = 0; i < n; i++) fields.push(this.value());
    return new Row(kind as RowKind, fields);
  }

  private object(): Record<string, unknown> {
    const n = this.count(2);
    const o: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const k = this.string();
      const v = this.value();
      // Assigning '__proto__' would set the prototype instead of adding the own property that was written.
      if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
      else o[k] = v;
    }
    return o;
  }

  /** A string value (object keys, class names): any other tag is corrupt. */
  string(): string {
    const at = this.pos;
    const t = this.byte();
    if (t !== Tag.STRING_ASCII && t !== Tag.STRING_UTF8 && t !== Tag.STRING_UTF16) throw this.corrupt(`a value of tag 0x${t.toString(16)} where a string belongs`, at);
    return this.stringBody(t);
  }

  private stringBody(t: number): string {
    if (t === Tag.STRING_ASCII) {
      const n = this.uvarint();
      const p = this.take(n);
      return this.b.latin1Slice(p, p + n);
    }
    if (t === Tag.STRING_UTF8) {
      const n = this.uvarint();
      const p = this.take(n);
      return this.b.utf8Slice(p, p + n);
    }
    const n = this.uvarint();
    const p = this.take(n * 2);
    return this.b.ucs2Slice(p, p + n * 2);
  }
}
