import type { LogicalType, RowType } from '../../types/logical-type.js';
import { MS_PER_DAY, parseIsoDate } from '../common/temporal-text.js';
import type { CsvSettings } from './csv-options.js';
import type { CsvFieldReader } from './csv-values.js';

/**
 * Reads the fields of one CSV record (already decoded, without its line break) into a fields array, or
 * returns undefined when the record is anything but the common case; the caller then takes the general
 * path (CsvRecordParser and the field readers), which also produces every error and every lenient NULL.
 * Called by CsvRowDecoder once per record; never awaits; does not throw.
 */
export type CsvFastDecoder = (line: string) => unknown[] | undefined;

/**
 * The common case is a record with exactly one field per column, quoted fields without doubled quotes,
 * no escape character anywhere, and fields that every column's reader accepts. Everything else falls back
 * (too few or too many fields, a doubled or unterminated quote, text after a closing quote, a field its
 * reader rejects), so the fast path never decides anything the general one would decide differently.
 *
 * Why it exists: the general path splits a record with quotes char by char into an array of field texts,
 * then calls a reader per text through one polymorphic call site. Here the code is generated once per row
 * type: fields are found with `indexOf`, integers and `yyyy-MM-dd HH:mm:ss[.SSS]` timestamps are read
 * with arithmetic on the record's char codes (no field string at all), strings are one `slice`, and every
 * other column calls its own reader at its own call site.
 *
 * `readers` are the general path's readers of the columns, so a field the fast code does not read itself
 * reads exactly as there. Returns undefined when the settings make the fast path pointless or ambiguous
 * (a delimiter equal to the quote or escape character).
 */
export function createCsvFastDecoder(rowType: RowType, settings: CsvSettings, readers: readonly CsvFieldReader[]): CsvFastDecoder | undefined {
  const { fieldDelimiter: delim, quoteCharacter: quote, escapeCharacter: escape, nullLiteral } = settings;
  const fields = rowType.fields;
  if (fields.length === 0 || delim === quote || delim === escape) return undefined;
  const d = JSON.stringify(delim);
  const body: string[] = [];
  if (escape !== undefined) body.push(`if (line.includes(${JSON.stringify(escape)})) return undefined;`);
  fields.forEach((f, i) => {
    // Before each field `p` is its first char; a record that ended already (p === n + 1) has too few fields.
    if (i > 0) body.push('if (p > n) return undefined;');
    const unquoted = `x = line.indexOf(${d}, p); s = p; e = x < 0 ? n : x; p = e;`;
    if (quote === undefined) body.push(unquoted);
    else {
      const q = JSON.stringify(quote);
      // A closing quote followed by anything but the delimiter (a doubled quote, stray text) falls back.
      body.push(
        `if (line.charCodeAt(p) === ${quote.charCodeAt(0)}) { x = line.indexOf(${q}, p + 1); if (x < 0) return undefined; ` +
          `s = p + 1; e = x; p = x + 1; if (p < n && line.charCodeAt(p) !== ${delim.charCodeAt(0)}) return undefined; } else { ${unquoted} }`,
      );
    }
    const read = readCode(i, f.type);
    if (nullLiteral === undefined) body.push(read);
    else body.push(`if (e - s === ${nullLiteral.length} && line.startsWith(${JSON.stringify(nullLiteral)}, s)) f${i} = null; else { ${read} }`);
    body.push('p++;');
  });
  // After the last field `p` is one past the end; anything else means more fields than columns.
  body.push('if (p !== n + 1) return undefined;');
  const names = fields.map((_, i) => `f${i}`);
  const source = `
    ${readers.map((_, i) => `const r${i} = readers[${i}];`).join('\n')}
    return function decodeCsvFast(line) {
      const n = line.length;
      let p = 0, s = 0, e = 0, x = 0, t = 0;
      ${names.map((v) => `let ${v} = null;`).join(' ')}
      try {
        ${body.join('\n        ')}
      } catch {
        return undefined;
      }
      return [${names.join(', ')}];
    };`;
  const factory = new Function('readers', 'readInteger', 'readTimestamp', source) as (...args: unknown[]) => CsvFastDecoder;
  return factory(readers, readInteger, readTimestamp);
}

/** Code reading field `i` of `type` from `line[s, e)` into `f${i}`; a reader that throws falls back. */
function readCode(i: number, type: LogicalType): string {
  const general = `f${i} = r${i}(line.slice(s, e));`;
  switch (type.kind) {
    case 'CHAR':
    case 'VARCHAR':
      return `f${i} = line.slice(s, e);`;
    case 'BIGINT':
      return `t = readInteger(line, s, e); if (t === t) f${i} = BigInt(t); else ${general}`;
    case 'TINYINT':
      return intCode(i, -128, 127, general);
    case 'SMALLINT':
      return intCode(i, -32768, 32767, general);
    case 'INT':
    case 'INTERVAL_YEAR_MONTH':
      return intCode(i, -2147483648, 2147483647, general);
    case 'TIMESTAMP':
      return `t = readTimestamp(line, s, e, false); if (t === t) f${i} = t; else ${general}`;
    case 'TIMESTAMP_LTZ':
      return `t = readTimestamp(line, s, e, true); if (t === t) f${i} = t; else ${general}`;
    default:
      return general;
  }
}

function intCode(i: number, min: number, max: number, general: string): string {
  // NaN fails both comparisons, so a text readInteger cannot read goes to the reader too.
  return `t = readInteger(line, s, e); if (t >= ${min} && t <= ${max}) f${i} = t; else ${general}`;
}

/**
 * The value of `line[s, e)` when it is an optionally signed run of 1 to 15 digits (exact as a double), or
 * NaN; the same texts and values as the general readers' `smallInteger`.
 */
function readInteger(line: string, s: number, e: number): number {
  let i = s;
  const c0 = line.charCodeAt(i);
  const neg = c0 === 45;
  if (neg || c0 === 43) i++;
  if (i === e || e - i > 15) return NaN;
  let v = 0;
  for (; i < e; i++) {
    const c = line.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return neg ? -v : v;
}

/** `y * 10000 + m * 100 + d` of the last date readTimestamp read, and its days since epoch. */
let cachedDateKey = -1;
let cachedDays = 0;

/** The digit at `line[i]`, or NaN (which poisons any sum it enters). */
function digitAt(line: string, i: number): number {
  const c = line.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

/**
 * Epoch ms of `line[s, e)` when it is exactly `yyyy-MM-dd HH:mm:ss` followed by nothing or by `.` and 1
 * to 3 digits (what Sluice and Flink write for TIMESTAMP(p <= 3) in the SQL standard), with a trailing `Z`
 * when `zulu` allows it; else NaN, and the caller hands the text to the general reader. The date is
 * validated by `parseIsoDate` and cached by its digits.
 */
function readTimestamp(line: string, s: number, e: number, zulu: boolean): number {
  if (zulu && e > s && line.charCodeAt(e - 1) === 90) e--;
  const len = e - s;
  if (len < 19 || len > 23 || len === 20) return NaN;
  if (line.charCodeAt(s + 4) !== 45 || line.charCodeAt(s + 7) !== 45 || line.charCodeAt(s + 10) !== 32) return NaN;
  if (line.charCodeAt(s + 13) !== 58 || line.charCodeAt(s + 16) !== 58) return NaN;
  const key =
    digitAt(line, s) * 1e7 + digitAt(line, s + 1) * 1e6 + digitAt(line, s + 2) * 1e5 + digitAt(line, s + 3) * 1e4 +
    digitAt(line, s + 5) * 1000 + digitAt(line, s + 6) * 100 + digitAt(line, s + 8) * 10 + digitAt(line, s + 9);
  let days: number;
  if (key === cachedDateKey) days = cachedDays;
  else {
    if (key !== key) return NaN;
    days = parseIsoDate(line.slice(s, s + 10));
    if (days !== days) return NaN;
    cachedDateKey = key;
    cachedDays = days;
  }
  const h = digitAt(line, s + 11) * 10 + digitAt(line, s + 12);
  const mi = digitAt(line, s + 14) * 10 + digitAt(line, s + 15);
  const sec = digitAt(line, s + 17) * 10 + digitAt(line, s + 18);
  let ms = 0;
  if (len > 19) {
    if (line.charCodeAt(s + 19) !== 46) return NaN;
    ms = digitAt(line, s + 20) * 100;
    if (len > 21) ms += digitAt(line, s + 21) * 10;
    if (len > 22) ms += digitAt(line, s + 22);
  }
  // A non-digit made one of them NaN, which fails every comparison: test for the good case.
  if (!(h <= 23 && mi <= 59 && sec <= 59 && ms >= 0)) return NaN;
  return days * MS_PER_DAY + ((h * 60 + mi) * 60 + sec) * 1000 + ms;
}
