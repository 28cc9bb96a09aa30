import { isConstructed } from '../../types/logical-type.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { asciiDecode, utf8Decode } from '../../util/utf8.js';
import { MS_PER_DAY, parseIsoDate } from '../common/temporal-text.js';
import { createJsonElementConverter } from './json-to-row.js';
import type { JsonDecodeSettings } from './json-to-row.js';

/**
 * Reads the fields of one JSON message straight from its bytes into a fields array, or returns undefined
 * when the message is anything but the common case; the caller then takes the general path (UTF-8 decode,
 * JSON.parse, converters), which also produces every error. Never throws for a valid or invalid message
 * other than by a converter bug; the caller treats a throw as undefined.
 */
export type JsonFastDecoder = (bytes: Uint8Array) => unknown[] | undefined;

/**
 * The common case is an object whose keys are the row's fields in schema order (what Sluice's and Flink's
 * encoders write), some trailing fields possibly missing, with scalar values: strings, numbers, true/false
 * and null. Everything else (another key order, unknown or duplicate keys, nested values, DECIMAL numbers
 * of 16 characters or more, numbers or literals in a character field) falls back, so the fast path never
 * decides anything the general one would decide differently: both hand the same JavaScript value (the
 * string, `Number(text)`, the boolean) to the same converter.
 *
 * Why it exists: the general path decodes UTF-8 into a string, has JSON.parse build an object with
 * seven properties, and then reads them back; for Nexmark-sized messages that is most of the decode.
 * Reading bytes in schema order allocates only the values (and ASCII strings are one native copy each).
 */
export function createJsonFastDecoder(rowType: RowType, settings: JsonDecodeSettings): JsonFastDecoder | undefined {
  const fields = rowType.fields;
  if (fields.length === 0) return undefined;
  const converters = fields.map((f) => createJsonElementConverter(f.type, settings));
  const body: string[] = [];
  fields.forEach((f, i) => {
    const key = Buffer.from(f.name, 'utf8');
    const last = i === fields.length - 1;
    // An empty object ends before the first key.
    if (i === 0) body.push(`if (c === 125) { p++; ${missing(0, settings)} break done; }`);
    const keyTest = [`c !== 34`, ...Array.from(key, (k, j) => `b[p + ${j + 1}] !== ${k}`), `b[p + ${key.length + 1}] !== 34`].join(' || ');
    body.push(`if (${keyTest}) return undefined;`);
    body.push(`p += ${key.length + 2}; ${WS} if (c !== 58) return undefined; p++; ${WS}`);
    body.push(valueCode(i, f.type, settings));
    body.push(WS);
    if (last) body.push('if (c !== 125) return undefined; p++;');
    else body.push(`if (c === 44) { p++; ${WS} } else if (c === 125) { p++; ${missing(i + 1, settings)} break done; } else return undefined;`);
  });
  const names = fields.map((_, i) => `f${i}`);
  const source = `
    ${converters.map((_, i) => `const c${i} = conv[${i}];`).join('\n')}
    return function decodeFast(b) {
      const n = b.length;
      let p = 0, c, t;
      ${names.map((v) => `let ${v} = null;`).join(' ')}
      ${WS}
      if (c !== 123) return undefined;
      p++;
      ${WS}
      done: {
        ${body.join('\n        ')}
      }
      ${WS}
      if (p !== n) return undefined;
      return [${names.join(', ')}];
    };`;
  const factory = new Function('conv', 'S', 'readString', 'readNumber', 'readTimestamp', source) as (...args: unknown[]) => JsonFastDecoder;
  return factory(converters, state, readString, readNumber, readTimestamp);
}

/** Skip JSON whitespace; leaves the next byte in `c` (undefined at the end). */
const WS = 'while ((c = b[p]) === 32 || c === 9 || c === 10 || c === 13) p++;';

/** Code for the object ending before field `from`: missing fields stay NULL unless they must be present. */
function missing(from: number, settings: JsonDecodeSettings): string {
  return settings.failOnMissingField && from >= 0 ? 'return undefined;' : '';
}

/** Code reading the value of field `i` at `p` (its first byte in `c`) into `f${i}`, leaving `p` after it. */
function valueCode(i: number, type: LogicalType, settings: JsonDecodeSettings): string {
  const nullCase = `if (c === 110 && b[p + 1] === 117 && b[p + 2] === 108 && b[p + 3] === 108) { p += 4; }`;
  if (isConstructed(type) || type.kind === 'NULL') return `${nullCase} else return undefined;`;
  const stringCase = `if (c === 34) { t = readString(b, p); if (t === undefined) return undefined; p = S.end; f${i} = c${i}(t); }`;
  const literalCase =
    `if (c === 116 && b[p + 1] === 114 && b[p + 2] === 117 && b[p + 3] === 101) { p += 4; f${i} = c${i}(true); } ` +
    `else if (c === 102 && b[p + 1] === 97 && b[p + 2] === 108 && b[p + 3] === 115 && b[p + 4] === 101) { p += 5; f${i} = c${i}(false); }`;
  if (type.kind === 'CHAR' || type.kind === 'VARCHAR') {
    // A string needs no converter call: the value is the text itself.
    return `if (c === 34) { t = readString(b, p); if (t === undefined) return undefined; p = S.end; f${i} = t; } else ${nullCase} else return undefined;`;
  }
  if (type.kind === 'TIMESTAMP' && settings.timestampStandard === 'SQL') {
    // The usual 'yyyy-MM-dd HH:mm:ss[.SSS]' read from the bytes; any other text goes through the converter.
    return `if (c === 34 && (t = readTimestamp(b, p)) === t) { p = S.end; f${i} = t; } else ${stringCase} else ${nullCase} else return undefined;`;
  }
  if (type.kind === 'BIGINT') {
    // BigInt of a safe integer is what the converter returns; the rest (1e3, 2^60, ...) is left to it.
    const bigint = `if (c === 45 || (c >= 48 && c <= 57)) { t = readNumber(b, p); if (t !== t) return undefined; p = S.end; f${i} = Number.isSafeInteger(t) ? BigInt(t) : c${i}(t); }`;
    return `${bigint} else ${stringCase} else ${literalCase} else ${nullCase} else return undefined;`;
  }
  // DECIMAL: a long literal may carry more digits than a double; the general path reads it exactly.
  const tooLong = type.kind === 'DECIMAL' ? ` if (S.end - p > 15) return undefined;` : '';
  const numberCase = `if (c === 45 || (c >= 48 && c <= 57)) { t = readNumber(b, p); if (t !== t) return undefined;${tooLong} p = S.end; f${i} = c${i}(t); }`;
  return `${numberCase} else ${stringCase} else ${literalCase} else ${nullCase} else return undefined;`;
}

/** Where the last readString / readNumber stopped: one past the value. */
const state = { end: 0 };

/**
 * The string starting with the quote at `start`, or undefined for one JSON.parse would reject (a control
 * character, no closing quote). ASCII text is one native latin1 copy; text with escapes goes through
 * JSON.parse, so it reads exactly as on the general path.
 */
function readString(b: Uint8Array, start: number): string | undefined {
  let i = start + 1;
  let ascii = true;
  let escaped = false;
  for (;;) {
    const c = b[i];
    if (c === 34) break;
    if (c === undefined || c < 32) return undefined;
    if (c === 92) {
      escaped = true;
      i += 2;
      continue;
    }
    if (c >= 128) ascii = false;
    i++;
  }
  state.end = i + 1;
  if (escaped) return JSON.parse(utf8Decode(b.subarray(start, i + 1))) as string;
  return ascii ? asciiDecode(b, start + 1, i) : utf8Decode(b.subarray(start + 1, i));
}

/**
 * The JSON number starting at `start` as JSON.parse reads it (`Number` of its text), or NaN when it is not
 * a JSON number. Integers of up to 15 digits are read from the digits without building a string.
 */
function readNumber(b: Uint8Array, start: number): number {
  let p = start;
  const neg = b[p] === 45;
  if (neg) p++;
  const digits = p;
  let c = b[p];
  let v = 0;
  if (c === 48) c = b[++p];
  else if (c !== undefined && c >= 49 && c <= 57) {
    do {
      v = v * 10 + (c - 48);
      c = b[++p];
    } while (c !== undefined && c >= 48 && c <= 57);
  } else return NaN;
  if (c !== 46 && c !== 101 && c !== 69) {
    state.end = p;
    return p - digits <= 15 ? (neg ? -v : v) : Number(asciiDecode(b, start, p));
  }
  if (c === 46) {
    c = b[++p];
    if (c === undefined || c < 48 || c > 57) return NaN;
    do c = b[++p];
    while (c !== undefined && c >= 48 && c <= 57);
  }
  if (c === 101 || c === 69) {
    c = b[++p];
    if (c === 43 || c === 45) c = b[++p];
    if (c === undefined || c < 48 || c > 57) return NaN;
    do c = b[++p];
    while (c !== undefined && c >= 48 && c <= 57);
  }
  state.end = p;
  return Number(asciiDecode(b, start, p));
}

let lastDateKey = -1;
let lastDateDays = 0;

/** The digit at `b[i]`, or NaN (which poisons any sum it enters). */
function digit(b: Uint8Array, i: number): number {
  const d = b[i]! - 48;
  return d >= 0 && d <= 9 ? d : NaN;
}

/**
 * Epoch ms of the string at `start` when it is exactly `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd HH:mm:ss.SSS`
 * (what Sluice and Flink write for TIMESTAMP(3) in the SQL standard), else NaN, and the caller reads the
 * text with the converter. The date is validated by `parseIsoDate` and cached by its digits.
 */
function readTimestamp(b: Uint8Array, start: number): number {
  const s = start + 1;
  const close = b[s + 19] === 34 ? s + 19 : b[s + 23] === 34 && b[s + 19] === 46 ? s + 23 : -1;
  if (close < 0 || b[s + 4] !== 45 || b[s + 7] !== 45 || b[s + 10] !== 32 || b[s + 13] !== 58 || b[s + 16] !== 58) return NaN;
  const key =
    digit(b, s) * 1e7 + digit(b, s + 1) * 1e6 + digit(b, s + 2) * 1e5 + digit(b, s + 3) * 1e4 +
    digit(b, s + 5) * 1000 + digit(b, s + 6) * 100 + digit(b, s + 8) * 10 + digit(b, s + 9);
  if (key !== key) return NaN;
  let days: number;
  if (key === lastDateKey) days = lastDateDays;
  else {
    days = parseIsoDate(asciiDecode(b, s, s + 10));
    if (days !== days) return NaN;
    lastDateKey = key;
    lastDateDays = days;
  }
  const h = digit(b, s + 11) * 10 + digit(b, s + 12);
  const mi = digit(b, s + 14) * 10 + digit(b, s + 15);
  const sec = digit(b, s + 17) * 10 + digit(b, s + 18);
  const ms = close === s + 23 ? digit(b, s + 20) * 100 + digit(b, s + 21) * 10 + digit(b, s + 22) : 0;
  // A non-digit made one of them NaN, which fails every comparison: test for the good case.
  if (!(h <= 23 && mi <= 59 && sec <= 59 && ms >= 0)) return NaN;
  state.end = close + 1;
  return days * MS_PER_DAY + ((h * 60 + mi) * 60 + sec) * 1000 + ms;
}
