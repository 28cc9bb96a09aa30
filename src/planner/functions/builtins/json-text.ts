/**
 * JSON text read without losing number digits, as Flink's JSON functions (Calcite on Jackson with
 * BigDecimal) keep them: `JSON_VALUE('{"a":123456789.987654321}', '$.a')` is '123456789.987654321', not
 * the nearest double. Objects, arrays, strings, booleans and null are as `JSON.parse` gives them; numbers
 * are JsonNumber holding their text.
 */
export class JsonNumber {
  constructor(readonly text: string) {}
}

// Strings (kept whole, so digits inside them are left alone) or numbers (wrapped for the reviver).
// The number pattern is JSON's own (no leading zeros), so text JSON.parse refuses stays refused.
const TOKENS = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
// Numbers become strings starting with U+0000 '#', written escaped (a raw control character is not JSON).
// Only an input string that itself starts with an escaped U+0000 followed by '#' could be mistaken for one.
const MARK = '\u0000#';
const MARK_ESCAPED = '\\u0000#';

/**
 * @param asWritten keep each number's text exactly as written (VARIANT decides from it whether a number is a long, a
 *   decimal or a double) instead of Jackson's form.
 * @throws SyntaxError (from JSON.parse) for text that is not JSON.
 */
export function parseJsonLossless(text: string, asWritten = false): unknown {
  const marked = text.replace(TOKENS, (m) => (m.startsWith('"') ? m : `"${MARK_ESCAPED}${m}"`));
  return JSON.parse(marked, (_k, v: unknown) => {
    if (typeof v !== 'string' || !v.startsWith(MARK)) return v;
    const written = v.slice(MARK.length);
    return new JsonNumber(asWritten ? written : jacksonNumberText(written));
  });
}

/**
 * A JSON number's text as Flink's JSON functions print it back: Jackson reads an integer as a long (or a
 * BigInteger) and any other number as a BigDecimal, which prints as Java's `BigDecimal.toString` does:
 * plainly while the scale is not negative and the exponent not below -6, else in scientific notation. So
 * `-1.25E2` is `-125`, `1.5E-3` is `0.0015`, `1.50` stays `1.50`, `1.7976931348623157E308` is
 * `1.7976931348623157E+308`, `0.0000001` is `1E-7`, and `-0` and `-0.0` lose their sign (neither type has a
 * negative zero). Also how Jackson writes a DECIMAL or a DOUBLE (its Double.toString digits read as a BigDecimal):
 * JSON_OBJECT(KEY 'y' VALUE 1.7976931348623157E308) is {"y":1.7976931348623157E+308} in a real Flink 2.3.
 */
export function jacksonNumberText(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (m === null) return text;
  const int = m[2]!;
  const frac = m[3] ?? '';
  const integer = m[3] === undefined && m[4] === undefined;
  // BigDecimal's unscaled digits and scale.
  const digits = (int + frac).replace(/^0+(?=\d)/, '');
  const scale = frac.length - Number(m[4] ?? 0);
  const sign = digits === '0' ? '' : m[1]!;
  if (integer) return sign + digits;
  const adjusted = -scale + (digits.length - 1);
  if (scale >= 0 && adjusted >= -6) {
    if (scale === 0) return sign + digits;
    const padded = digits.padStart(scale + 1, '0');
    return `${sign}${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
  }
  const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${sign}${mantissa}E${adjusted > 0 ? '+' : ''}${adjusted}`;
}

/** A JSON object (not an array, not a number). */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonNumber);
}

/** An array or an object: what JSON_QUERY returns and JSON_VALUE refuses. */
export function isJsonContainer(v: unknown): boolean {
  return Array.isArray(v) || isJsonObject(v);
}

/** Compact JSON text of a parsed value; numbers as they were written, object keys sorted. */
export function stringifyJson(v: unknown): string {
  if (v instanceof JsonNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(stringifyJson).join(',')}]`;
  // Keys in order, as Flink's serializer writes them (Jackson ORDER_MAP_ENTRIES_BY_KEYS).
  if (isJsonObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stringifyJson(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}
