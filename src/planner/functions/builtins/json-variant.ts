import { ExecutionError } from '../../../errors/sluice-error.js';
import { formatDouble } from '../../../types/values/number-format.js';
import { isJsonObject, JsonNumber, parseJsonLossless } from './json-text.js';

/**
 * Flink 2.1+'s VARIANT, kept small: a VARIANT value is held as its canonical JSON text, the text Flink prints for it
 * (print, collect, JSON_STRING, JSON_OBJECT / JSON_ARRAY values). Flink stores a parsed document in its binary variant
 * format (Spark's encoding); the canonical text follows from how that format keeps each JSON value:
 * - object keys sorted, no spaces: PARSE_JSON('{"b":1,"a":2}') prints {"a":2,"b":1};
 * - an integer that fits a long as that long (-0 is 0); a larger one as a DECIMAL while it has at most 38 digits;
 * - a number with a fraction and no exponent as a DECIMAL (precision and scale at most 38), printed without trailing
 *   zeros (1.50 is 1.5, 1.0 is 1, 0.000001 stays plain);
 * - anything else (an exponent, more digits) as a DOUBLE, printed as Java's Double.toString: 1e2 is 100.0, 1E-7 is
 *   1.0E-7, 1e400 is Infinity.
 * Each of these is what a real Flink 2.3 printed for the same PARSE_JSON text.
 *
 * Not implemented: CAST to and from VARIANT (Flink 2.3 refuses them too), the variant accessors v['key'] / v[1],
 * comparing VARIANT values, VARIANT in connectors and formats, and GROUP BY a VARIANT (Flink refuses it).
 */

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const MAX_DECIMAL_DIGITS = 38;

function doubleText(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (!Number.isFinite(d)) return d > 0 ? 'Infinity' : '-Infinity';
  return formatDouble(d);
}

/** A JSON number's text, as written, as the VARIANT prints it. */
export function variantNumberText(written: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?([eE][+-]?\d+)?$/.exec(written);
  if (m === null || m[4] !== undefined) return doubleText(Number(written));
  const sign = m[1]!;
  const int = m[2]!.replace(/^0+(?=\d)/, '');
  if (m[3] === undefined) {
    const b = BigInt(sign + int);
    if (b >= LONG_MIN && b <= LONG_MAX) return b.toString();
    return int.length <= MAX_DECIMAL_DIGITS ? b.toString() : doubleText(Number(written));
  }
  const frac = m[3];
  // BigDecimal's precision: the digits of the unscaled value, leading zeros dropped.
  const precision = Math.max(1, (int + frac).replace(/^0+/, '').length);
  if (precision > MAX_DECIMAL_DIGITS || frac.length > MAX_DECIMAL_DIGITS) return doubleText(Number(written));
  const kept = frac.replace(/0+$/, '');
  const text = kept === '' ? int : `${int}.${kept}`;
  return /^[0.]+$/.test(text) ? '0' : sign + text;
}

function canonical(v: unknown): string {
  if (v instanceof JsonNumber) return variantNumberText(v.text);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isJsonObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** PARSE_JSON: the VARIANT of a JSON text. @throws ExecutionError for text that is not JSON. */
export function parseJsonVariant(text: string): string {
  let doc: unknown;
  try {
    doc = parseJsonLossless(text, true);
  } catch {
    throw new ExecutionError(`Failed to parse json string: ${text.length > 100 ? text.slice(0, 100) + '...' : text}`);
  }
  return canonical(doc);
}

/** TRY_PARSE_JSON: as PARSE_JSON, NULL for text that is not JSON. */
export function tryParseJsonVariant(text: string | null): string | null {
  if (text === null) return null;
  try {
    return parseJsonVariant(text);
  } catch {
    return null;
  }
}

// The canonical text may hold the doubles JSON has no literal for: they are read back as numbers.
const CANONICAL_TOKENS = /"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g;
const SPECIAL = '\u0000V';

function readCanonical(text: string): unknown {
  const marked = text.replace(CANONICAL_TOKENS, (m) => (m.startsWith('"') ? m : `"\\u0000V${m}"`));
  const revive = (v: unknown): unknown => {
    if (typeof v === 'string' && v.startsWith(SPECIAL)) return new JsonNumber(v.slice(SPECIAL.length));
    if (Array.isArray(v)) return v.map(revive);
    if (isJsonObject(v)) {
      for (const k of Object.keys(v)) v[k] = revive(v[k]);
    }
    return v;
  };
  return revive(parseJsonLossless(marked, true));
}

/**
 * `v['key']` and `v[i]` of a VARIANT: the object member or the array element (from 1), a VARIANT; NULL when the key
 * or the position is missing (a real Flink 2.3 answers PARSE_JSON('[5,6]')[1] with 5, PARSE_JSON('[5,6]')[3] and
 * [0] with NULL). A key on a non-object or a position on a non-array is an error.
 */
export function variantItem(variant: string, key: string | number | bigint): string | null {
  const doc = readCanonical(variant);
  let out: unknown;
  if (typeof key === 'string') {
    if (!isJsonObject(doc)) throw new ExecutionError(`A VARIANT that is not an object has no field '${key}'.`);
    if (!Object.hasOwn(doc, key)) return null;
    out = doc[key];
  } else {
    const i = Number(key);
    if (!Array.isArray(doc)) throw new ExecutionError(`A VARIANT that is not an array has no element ${i}.`);
    if (i < 1 || i > doc.length) return null;
    out = doc[i - 1];
  }
  return stringifyCanonical(out);
}

function stringifyCanonical(v: unknown): string {
  if (v instanceof JsonNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(stringifyCanonical).join(',')}]`;
  if (isJsonObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stringifyCanonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}
