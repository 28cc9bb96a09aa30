import type { LogicalType, RowType } from '../../types/logical-type.js';
import { parseFlinkTimestampAt } from '../common/temporal-text.js';
import { TimestampPrefixCache } from '../common/timestamp-prefix-cache.js';
import type { CsvSettings } from './csv-options.js';
import { smallIntegerAt } from './csv-values.js';
import type { CsvFieldReader } from './csv-values.js';
import { asciiDecode } from '../../util/utf8.js';

/**
 * Reads the fields of one CSV record, `text[start, end)` without its line break, into a fields array, or
 * returns undefined when the record is anything but the common case; the caller then takes the general
 * path (CsvRecordParser and the field readers), which also produces every error and every lenient NULL.
 * Called by CsvRowDecoder once per record; never awaits; does not throw.
 *
 * `text` is either the record alone (`bytes` undefined) or a whole chunk of ASCII lines read from a file, `bytes`
 * being that chunk's bytes (so char offsets are byte offsets). In the second case the records of one chunk must
 * best come in increasing `start` order, as a file reader produces them: the decoder remembers where the next
 * delimiter (and escape) of the chunk is, so a search that ran past the record's end is not run again for the
 * next record (a one-column file has no delimiter at all: every record would otherwise search to the chunk's end).
 * The remembered chunk is the one the last call read (one buffer kept alive until the next call).
 */
export type CsvFastDecoder = (text: string, start: number, end: number, bytes: Uint8Array | undefined) => unknown[] | undefined;

/**
 * The common case is a record with exactly one field per column, quoted fields without doubled quotes,
 * no escape character anywhere, and fields that every column's reader accepts. Everything else falls back
 * (too few or too many fields, a doubled or unterminated quote, text after a closing quote, a field its
 * reader rejects), so the fast path never decides anything the general one would decide differently.
 *
 * Why it exists: the general path splits a record with quotes char by char into an array of field texts,
 * then calls a reader per text through one polymorphic call site. Here the code is generated once per row
 * type: fields are found with `indexOf`, integers are read from the record's char codes in place (no
 * field string at all), timestamps go straight to `parseFlinkTimestampAt` in place (arithmetic for the SQL shape
 * Sluice and Flink write, no trim, no closure), strings are one `slice`, and every other column calls its
 * own reader at its own call site.
 *
 * Strings of a chunk: V8 makes a slice of 13 or more chars a view that keeps its whole parent alive, so a string
 * field sliced from a chunk's text would pin the text (a 32 KiB window of the file source) for as long as any
 * operator state holds the value. Such fields, and the texts handed to the other readers, are copied from `bytes`
 * instead (one flat string). The copy is a native call (~100 ns against ~20 ns for a view): about 7 % of a
 * projection's CPU (nexmark q0, measured for #20). It stays, because the heap state backend and operator buffers
 * keep the JS values themselves: one kept value per window (a GROUP BY key seen once in a while) would hold 32 KiB
 * instead of its own length, without bound. A view is safe only where nothing keeps values past the batch (a
 * stateless chain into a sink that encodes at write): the planner tells the source so (ScanContext.transientValues),
 * and `views` then slices every field (q0 and q1 read 1.2x more rows per CPU second).
 *
 * `readers` are the general path's readers of the columns, so a field the fast code does not read itself
 * reads exactly as there. Returns undefined when the settings make the fast path pointless or ambiguous
 * (a delimiter equal to the quote or escape character).
 */
export function createCsvFastDecoder(
  rowType: RowType,
  settings: CsvSettings,
  readers: readonly CsvFieldReader[],
  /**
   * The record fields the returned array holds, in order (default all). A field not listed is only stepped over:
   * found, never sliced or converted.
   */
  projection: readonly number[] = rowType.fields.map((_, i) => i),
  /** String fields (and the texts handed to readers) may be views into the chunk's text: values die with their batch. */
  views = false,
): CsvFastDecoder | undefined {
  const { fieldDelimiter: delim, quoteCharacter: quote, escapeCharacter: escape, nullLiteral } = settings;
  const fields = rowType.fields;
  if (fields.length === 0 || delim === quote || delim === escape) return undefined;
  const read = new Set(projection);
  const field = fieldText(views);
  const d = JSON.stringify(delim);
  const body: string[] = [];
  // `dn`: the first delimiter at or after `df` (`text.length` when none), so valid for any p in [df, dn]; `en`, `ef`
  // the same for the escape character.
  if (escape !== undefined) {
    body.push(`if (en < start || ef > start) { ef = start; en = text.indexOf(${JSON.stringify(escape)}, start); if (en < 0) en = text.length; } if (en < n) return undefined;`);
  }
  fields.forEach((f, i) => {
    // Before each field `p` is its first char; a record that ended already (p === n + 1) has too few fields.
    if (i > 0) body.push('if (p > n) return undefined;');
    const unquoted = `if (dn < p || df > p) { df = p; dn = text.indexOf(${d}, p); if (dn < 0) dn = text.length; } s = p; e = dn < n ? dn : n; p = e;`;
    let locate: string;
    if (quote === undefined) locate = unquoted;
    else {
      const q = JSON.stringify(quote);
      // A closing quote followed by anything but the delimiter (a doubled quote, stray text) falls back, and so
      // does a quote closed only after the record's end (in a chunk, on a later line).
      locate =
        `if (p < n && text.charCodeAt(p) === ${quote.charCodeAt(0)}) { x = text.indexOf(${q}, p + 1); if (x < 0 || x >= n) return undefined; ` +
        `s = p + 1; e = x; p = x + 1; if (p < n && text.charCodeAt(p) !== ${delim.charCodeAt(0)}) return undefined; } else { ${unquoted} }`;
    }
    if (!read.has(i)) {
      // Only stepped over: nothing to read.
      body.push(locate);
    } else {
      const code = readCode(i, f.type, field);
      const general = nullLiteral === undefined ? code : `if (e - s === ${nullLiteral.length} && text.startsWith(${JSON.stringify(nullLiteral)}, s)) f${i} = null; else { ${code} }`;
      const direct = directCode(i, f.type, delim.charCodeAt(0), nullLiteral, field);
      body.push(direct === undefined ? `${locate} ${general}` : `${direct} else { ${locate} ${general} }`);
    }
    body.push('p++;');
  });
  // After the last field `p` is one past the end; anything else means more fields than columns.
  body.push('if (p !== n + 1) return undefined;');
  const names = fields.flatMap((_, i) => (read.has(i) ? [`f${i}`] : []));
  const source = `
    ${readers.map((_, i) => `const r${i} = readers[${i}];`).join('\n')}
    ${fields.flatMap((f, i) => (read.has(i) && f.type.kind === 'TIMESTAMP' ? [`const ts${i} = new TimestampPrefixCache();`] : [])).join('\n')}
    // The chunk the remembered positions belong to (see CsvFastDecoder); a record alone remembers nothing.
    let owner, df = 0, dn = -1, ef = 0, en = -1;
    // The value scanInt read last.
    let iv = 0;
    // End of the unquoted integer field at p (an optional sign and 1 to 15 digits, then the delimiter or the
    // record's end n), its value in iv; -1 for anything else.
    function scanInt(text, p, n) {
      let i = p, neg = false, c = text.charCodeAt(i);
      if (c === 45 || c === 43) { neg = c === 45; i++; }
      const d = i;
      let v = 0;
      while (i < n) { c = text.charCodeAt(i) - 48; if (c < 0 || c > 9) break; v = v * 10 + c; i++; }
      if (i === d || i - d > 15 || (i < n && text.charCodeAt(i) !== ${delim.charCodeAt(0)})) return -1;
      iv = neg ? -v : v;
      return i;
    }
    return function decodeCsvFast(text, start, n, bytes) {
      if (bytes === undefined || bytes !== owner) { owner = bytes; dn = -1; en = -1; }
      let p = start, s = 0, e = 0, x = 0, t = 0;
      ${names.map((v) => `let ${v} = null;`).join(' ')}
      try {
        ${body.join('\n        ')}
      } catch {
        return undefined;
      }
      return [${projection.map((i) => `f${i}`).join(', ')}];
    };`;
  const factory = new Function('readers', 'readInteger', 'readTimestamp', 'ascii', 'TimestampPrefixCache', source) as (...args: unknown[]) => CsvFastDecoder;
  return factory(readers, smallIntegerAt, parseFlinkTimestampAt, asciiDecode, TimestampPrefixCache);
}

/**
 * The field `text[s, e)` as a string: a flat copy out of a chunk (see createCsvFastDecoder; a short slice is a copy
 * already), or with `views` a slice.
 */
function fieldText(views: boolean): string {
  return views ? 'text.slice(s, e)' : '(bytes === undefined || e - s < 13 ? text.slice(s, e) : ascii(bytes, s, e))';
}

/**
 * For an integer or TIMESTAMP column, an `if (...) { ... }` that reads field `i` at `p` without searching for its
 * end first (a native `indexOf` per field): an integer is scanned up to the delimiter, a timestamp of the common
 * `yyyy-MM-dd HH:mm:ss.SSS` shape is 23 chars followed by the delimiter (none of its chars is one). The field must
 * be unquoted (a quote is no digit) and read as the general code would; anything else, including a field that is
 * the null literal, goes to the `else` the caller appends. Undefined for other types, or when the null literal
 * could look like such a field.
 */
function directCode(i: number, type: LogicalType, delim: number, nullLiteral: string | undefined, field: string): string | undefined {
  const integer = (assign: string): string | undefined =>
    nullLiteral !== undefined && /^[+-]?\d+$/.test(nullLiteral) ? undefined : `if (p < n && (x = scanInt(text, p, n)) >= 0) { s = p; e = p = x; ${assign} }`;
  const inRange = (min: number, max: number): string | undefined => integer(`if (iv >= ${min} && iv <= ${max}) f${i} = iv; else ${generalRead(i, field)}`);
  switch (type.kind) {
    case 'BIGINT':
      return integer(`f${i} = BigInt(iv);`);
    case 'TINYINT':
      return inRange(-128, 127);
    case 'SMALLINT':
      return inRange(-32768, 32767);
    case 'INT':
    case 'INTERVAL_YEAR_MONTH':
      return inRange(-2147483648, 2147483647);
    case 'TIMESTAMP':
      if (nullLiteral?.length === 23) return undefined;
      // A chunk's bytes let a column's TimestampPrefixCache compare the field's second with the last one read.
      return `if ((x = p + 23) <= n && (x === n || text.charCodeAt(x) === ${delim}) && (t = bytes === undefined ? readTimestamp(text, p, x, 'SQL', false) : ts${i}.read(text, bytes, p)) === t) { s = p; e = p = x; f${i} = t; }`;
    default:
      return undefined;
  }
}

/** Field `i` of `text[s, e)` (as the string `field` makes of it) through its column's general reader. */
function generalRead(i: number, field: string): string {
  return `f${i} = r${i}(${field});`;
}

/** Code reading field `i` of `type` from `text[s, e)` into `f${i}`; a reader that throws falls back. */
function readCode(i: number, type: LogicalType, field: string): string {
  const general = generalRead(i, field);
  switch (type.kind) {
    case 'CHAR':
    case 'VARCHAR':
      return `f${i} = ${field};`;
    case 'BIGINT':
      return `t = readInteger(text, s, e); if (t === t) f${i} = BigInt(t); else ${general}`;
    case 'TINYINT':
      return intCode(i, -128, 127, general);
    case 'SMALLINT':
      return intCode(i, -32768, 32767, general);
    case 'INT':
    case 'INTERVAL_YEAR_MONTH':
      return intCode(i, -2147483648, 2147483647, general);
    // The in-place reader keeps milliseconds: a TIMESTAMP(p > 3) field longer than `yyyy-MM-dd HH:mm:ss.SSS` (23
    // characters, 24 with an LTZ's Z) may have digits below the millisecond, so the field reader reads it.
    case 'TIMESTAMP':
      if (type.precision > 3) return `if (e - s <= 23 && (t = readTimestamp(text, s, e, 'SQL', false)) === t) f${i} = t; else ${general}`;
      return `t = readTimestamp(text, s, e, 'SQL', false); if (t === t) f${i} = t; else ${general}`;
    case 'TIMESTAMP_LTZ':
      if (type.precision > 3) return `if (e - s <= 24 && (t = readTimestamp(text, s, e, 'SQL', true)) === t) f${i} = t; else ${general}`;
      return `t = readTimestamp(text, s, e, 'SQL', true); if (t === t) f${i} = t; else ${general}`;
    default:
      return general;
  }
}

function intCode(i: number, min: number, max: number, general: string): string {
  // NaN fails both comparisons, so a text readInteger cannot read goes to the reader too.
  return `t = readInteger(text, s, e); if (t >= ${min} && t <= ${max}) f${i} = t; else ${general}`;
}
