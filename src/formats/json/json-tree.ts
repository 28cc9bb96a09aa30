import { FieldValueError } from '../format-error.js';

/**
 * A number kept as its source text, produced by `parseJsonExact` so BIGINT and DECIMAL fields read every
 * digit (9007199254740993 stays 9007199254740993).
 */
export class JsonNumberText {
  constructor(readonly text: string) {}
}

/** What the decoders walk: JSON.parse's output, or `parseJsonExact`'s, whose numbers are `JsonNumberText`. */
export type JsonNode = null | boolean | number | string | JsonNumberText | JsonNode[] | { [key: string]: JsonNode };

/**
 * Thrown (not an Error, never shown) by a converter that got a JS number which may have lost digits;
 * `readJson` catches it and parses the message again exactly.
 */
export const NEED_EXACT: unique symbol = Symbol('need-exact-json');

/**
 * A run of 16 digits or dots: the only way a number literal can carry more significant digits than a
 * double keeps (15 always round-trip). Cheap to test; a false hit only costs one exact re-parse.
 */
const LONG_NUMBER = /[\d.]{16}/;

/**
 * Parse `text` and hand the tree to `convert`. The fast path is the native JSON.parse; when the message
 * may hold a DECIMAL with more digits than a double keeps (`scanDecimals`), or `convert` throws
 * NEED_EXACT (a BIGINT beyond 2^53), the message is parsed again keeping numbers as text.
 */
export function readJson<T>(text: string, scanDecimals: boolean, convert: (tree: JsonNode) => T): T {
  if (scanDecimals && LONG_NUMBER.test(text)) return convert(parseJsonExact(text));
  const tree = JSON.parse(text) as JsonNode;
  try {
    return convert(tree);
  } catch (e) {
    if (e === NEED_EXACT) return convert(parseJsonExact(text));
    throw e;
  }
}

/** JSON text of a node, numbers as their source text (for STRING columns that receive an object). */
export function stringifyJsonNode(node: JsonNode): string {
  if (node instanceof JsonNumberText) return node.text;
  if (node === null || typeof node !== 'object') return JSON.stringify(node);
  if (Array.isArray(node)) return `[${node.map(stringifyJsonNode).join(',')}]`;
  const parts: string[] = [];
  for (const k of Object.keys(node)) parts.push(`${JSON.stringify(k)}:${stringifyJsonNode(node[k]!)}`);
  return `{${parts.join(',')}}`;
}

/** A JSON parser that keeps numbers as `JsonNumberText`; the slow, exact path of `readJson`. */
export function parseJsonExact(text: string): JsonNode {
  const p = new ExactParser(text);
  p.skipWs();
  const v = p.value();
  p.skipWs();
  if (p.pos !== text.length) p.fail('unexpected text after the JSON value');
  return v;
}

class ExactParser {
  pos = 0;

  constructor(private readonly s: string) {}

  fail(what: string): never {
    throw new FieldValueError(`Invalid JSON at position ${this.pos}: ${what}.`);
  }

  skipWs(): void {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.pos);
      if (c === 32 || c === 10 || c === 13 || c === 9) this.pos++;
      else return;
    }
  }

  value(): JsonNode {
    const s = this.s;
    const c = s.charCodeAt(this.pos);
    switch (c) {
      case 123: // {
        return this.object();
      case 91: // [
        return this.array();
      case 34: // "
        return this.string();
      case 116:
        return this.literal('true', true);
      case 102:
        return this.literal('false', false);
      case 110:
        return this.literal('null', null);
      default:
        if (c === 45 || (c >= 48 && c <= 57)) return this.number();
        return this.fail(Number.isNaN(c) ? 'unexpected end' : `unexpected character '${s[this.pos]}'`);
    }
  }

  private literal<T extends JsonNode>(word: string, v: T): T {
    if (!this.s.startsWith(word, this.pos)) this.fail(`expected '${word}'`);
    this.pos += word.length;
    return v;
  }

  private number(): JsonNumberText {
    const s = this.s;
    const start = this.pos;
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = start;
    if (!m.test(s)) this.fail('malformed number');
    this.pos = m.lastIndex;
    return new JsonNumberText(s.slice(start, this.pos));
  }

  private string(): string {
    const s = this.s;
    const start = this.pos + 1;
    let i = start;
    let escaped = false;
    for (;;) {
      const c = s.charCodeAt(i);
      if (Number.isNaN(c)) {
        this.pos = i;
        this.fail('unterminated string');
      }
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        i += 2;
      } else i++;
    }
    this.pos = i + 1;
    if (!escaped) return s.slice(start, i);
    try {
      return JSON.parse(s.slice(start - 1, i + 1)) as string;
    } catch {
      return this.fail('bad escape in string');
    }
  }

  private array(): JsonNode[] {
    this.pos++;
    const out: JsonNode[] = [];
    this.skipWs();
    if (this.s.charCodeAt(this.pos) === 93) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      out.push(this.value());
      this.skipWs();
      const c = this.s.charCodeAt(this.pos++);
      if (c === 93) return out;
      if (c !== 44) {
        this.pos--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  private object(): { [key: string]: JsonNode } {
    this.pos++;
    const out: { [key: string]: JsonNode } = {};
    this.skipWs();
    if (this.s.charCodeAt(this.pos) === 125) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.s.charCodeAt(this.pos) !== 34) this.fail('expected a field name');
      const key = this.string();
      this.skipWs();
      if (this.s.charCodeAt(this.pos++) !== 58) {
        this.pos--;
        this.fail("expected ':'");
      }
      this.skipWs();
      const v = this.value();
      // Plain assignment of '__proto__' would replace the prototype instead of adding a field.
      if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
      this.skipWs();
      const c = this.s.charCodeAt(this.pos++);
      if (c === 125) return out;
      if (c !== 44) {
        this.pos--;
        this.fail("expected ',' or '}'");
      }
    }
  }
}
