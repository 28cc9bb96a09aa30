import { createHash } from 'node:crypto';
import { ExecutionError } from '../../../errors/sluice-error.js';
import { DataTypes } from '../../../types/data-types.js';
import { MAX_LENGTH, withNullability } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import { commonType, isBinaryString } from '../../expressions/type-rules.js';
import { expr, fn, fnWithNulls, scalar } from '../define.js';
import type { ScalarFunctionDefinition } from '../function-definition.js';

/** String functions with Flink's semantics (1-based positions, Java regex dialect as far as JS shares it). */

const STRING = DataTypes.STRING();

/** Same type as the first operand for CHAR/VARCHAR-preserving functions (UPPER, TRIM, ...); VARCHAR for CHAR. */
function likeFirst(argTypes: readonly LogicalType[]): LogicalType {
  const t = argTypes[argTypes.length - 1]!;
  return t.kind === 'VARCHAR' ? t : STRING;
}

const regexCache = new Map<string, RegExp>();

/** A JS RegExp of a Java pattern (cached); ExecutionError for invalid patterns. */
export function javaRegex(pattern: string, flags = ''): RegExp {
  const key = `${flags}/${pattern}`;
  let r = regexCache.get(key);
  if (r === undefined) {
    try {
      // Java's possessive quantifiers and \Q..\E are not supported by JS; everything common is shared.
      r = new RegExp(pattern, flags + 'u');
    } catch {
      try {
        r = new RegExp(pattern, flags);
      } catch {
        throw new ExecutionError(`Invalid regular expression '${pattern}'.`);
      }
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(key, r);
  }
  return r;
}

function substring(s: string, start: number, len?: number): string {
  const n = s.length;
  let from = start > 0 ? start - 1 : start < 0 ? n + start : 0;
  if (from < 0) from = 0;
  if (len === undefined) return s.slice(from);
  if (len < 0) throw new ExecutionError(`The length of SUBSTRING must not be negative, but was ${len}.`);
  return s.slice(from, from + len);
}

function trimChars(s: string, chars: string, leading: boolean, trailing: boolean): string {
  let a = 0;
  let b = s.length;
  if (leading) while (a < b && chars.includes(s[a]!)) a++;
  if (trailing) while (b > a && chars.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}

function trim(side: string, chars: string, s: string): string {
  return trimChars(s, chars, side !== 'TRAILING', side !== 'LEADING');
}

function pad(s: string, len: number, p: string, left: boolean): string | null {
  if (len < 0) return null;
  if (len <= s.length) return s.slice(0, len);
  if (p.length === 0) return null;
  const fill = p.repeat(Math.ceil((len - s.length) / p.length)).slice(0, len - s.length);
  return left ? fill + s : s + fill;
}

/**
 * Flink's INITCAP (Calcite's SqlFunctions.initcap): words are runs of ASCII letters and digits; the first letter of
 * each is upper-cased, the others lower-cased, and any other character, non-ASCII letters included, is kept as is
 * and ends the word. A real Flink 2.3.0 answers INITCAP('ünïcode') = 'üNïCode' (differential harness finding).
 */
function initcap(s: string): string {
  let out = '';
  let startOfWord = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const digit = c >= 48 && c <= 57;
    const upper = c >= 65 && c <= 90;
    const lower = c >= 97 && c <= 122;
    if (!digit && !upper && !lower) {
      out += s[i];
      startOfWord = true;
      continue;
    }
    out += startOfWord ? (lower ? String.fromCharCode(c - 32) : s[i]) : upper ? String.fromCharCode(c + 32) : s[i];
    startOfWord = false;
  }
  return out;
}

function locate(needle: string, haystack: string, from = 1): number {
  if (from < 1) return 0;
  return haystack.indexOf(needle, from - 1) + 1;
}

// Without an index, the whole match (Flink's SqlFunctionUtils.regexpExtract(str, regex) uses group 0; a real Flink
// 2.3 answers 'ABC' for REGEXP_EXTRACT('ABC', '[A-Z]+'), ported from StringFunctionsITCase).
function regexpExtract(s: string, pattern: string, index = 0): string | null {
  const m = javaRegex(pattern).exec(s);
  if (m === null || index < 0 || index >= m.length) return null;
  return m[index] ?? null;
}

function regexpReplace(s: string, pattern: string, replacement: string): string {
  return s.replace(javaRegex(pattern, 'g'), replacement.replace(/\\\$/g, '$$$$'));
}

function splitIndex(s: string, sep: string, index: number): string | null {
  if (index < 0) return null;
  const parts = s.split(sep);
  return parts[index] ?? null;
}

function hashHex(algorithm: string): (s: unknown) => string {
  return (s) => createHash(algorithm).update(typeof s === 'string' ? Buffer.from(s, 'utf8') : (s as Uint8Array)).digest('hex');
}

function sha2(s: unknown, bits: number): string | null {
  const alg = { 224: 'sha224', 256: 'sha256', 384: 'sha384', 512: 'sha512', 0: 'sha256' }[bits];
  return alg === undefined ? null : hashHex(alg)(s);
}

function fromBase64(s: string): string {
  return Buffer.from(s, 'base64').toString('utf8');
}

function overlay(s: string, r: string, from: number, len?: number): string {
  const l = len ?? r.length;
  return s.slice(0, Math.max(0, from - 1)) + r + s.slice(Math.max(0, from - 1 + l));
}

function strToMap(s: string, pairDelim = ',', kvDelim = '='): Map<string, string | null> {
  const m = new Map<string, string | null>();
  for (const pair of s.split(javaRegex(pairDelim))) {
    const at = pair.search(javaRegex(kvDelim));
    if (at < 0) {
      m.set(pair, null);
    } else {
      const sepLen = javaRegex(kvDelim).exec(pair.slice(at))![0].length;
      m.set(pair.slice(0, at), pair.slice(at + sepLen));
    }
  }
  return m;
}

function parseUrl(url: string, part: string, key?: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const nonEmpty = (v: string): string | null => (v === '' ? null : v);
  switch (part.toUpperCase()) {
    case 'HOST':
      return nonEmpty(u.hostname);
    case 'PATH':
      return u.pathname;
    case 'QUERY':
      if (key !== undefined) return u.searchParams.get(key);
      return nonEmpty(u.search.slice(1));
    case 'REF':
      return nonEmpty(u.hash.slice(1));
    case 'PROTOCOL':
      return u.protocol.replace(/:$/, '');
    case 'FILE':
      return u.pathname + u.search;
    case 'AUTHORITY':
      return nonEmpty(u.host);
    case 'USERINFO':
      return nonEmpty(u.username + (u.password === '' ? '' : `:${u.password}`));
    default:
      return null;
  }
}

/**
 * Flink's TRANSLATE: by code points (an emoji is one character); the first occurrence of a character in `from`
 * decides; characters of `from` beyond the end of `to` are deleted. A NULL `from` or `to` counts as empty, so only
 * a NULL string gives NULL (Flink 2.3: TRANSLATE('www.apache.org', 'abc', NULL) is 'www.phe.org').
 */
function translate(s: string | null, from: string | null, to: string | null): string | null {
  if (s === null) return null;
  const f = [...(from ?? '')];
  const t = [...(to ?? '')];
  const map = new Map<string, string>();
  f.forEach((c, i) => {
    if (!map.has(c)) map.set(c, t[i] ?? '');
  });
  let out = '';
  for (const c of s) out += map.get(c) ?? c;
  return out;
}

/** A Java pattern as a global JS RegExp, or null when it does not compile (Flink's REGEXP_* then answer NULL). */
function globalRegexOrNull(pattern: string): RegExp | null {
  try {
    return javaRegex(pattern, 'g');
  } catch {
    return null;
  }
}

/** REGEXP_COUNT: the number of non-overlapping matches. */
function regexpCount(s: string, pattern: string): number | null {
  const r = globalRegexOrNull(pattern);
  return r === null ? null : [...s.matchAll(r)].length;
}

/** REGEXP_INSTR: the 1-based position (in UTF-16 units, as Java's String) of the first match, 0 without one. */
function regexpInstr(s: string, pattern: string): number | null {
  const r = globalRegexOrNull(pattern);
  if (r === null) return null;
  const m = s.matchAll(r).next();
  return m.done === true ? 0 : m.value.index + 1;
}

/** REGEXP_EXTRACT_ALL: group `index` (default 1) of every match; NULL for a group the pattern does not have. */
function regexpExtractAll(s: string, pattern: string, index = 1): (string | null)[] | null {
  const r = globalRegexOrNull(pattern);
  if (r === null || index < 0) return null;
  const groups = new RegExp(`${r.source}|`, r.flags).exec('')!.length - 1;
  if (index > groups) return null;
  return [...s.matchAll(r)].map((m) => m[index] ?? null);
}

/** ELT(index, e1, e2, ...): the index-th expression (1-based), NULL for a NULL or out-of-range index. */
function elt(index: number | null, ...values: unknown[]): unknown {
  if (index === null || index < 1 || index > values.length) return null;
  return values[index - 1] ?? null;
}

function concatWs(sep: string | null, ...parts: (string | null)[]): string | null {
  if (sep === null) return null;
  return parts.filter((p) => p !== null).join(sep);
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function str(name: string, signatures: ScalarSpecSignatures, codegen: ScalarFunctionDefinition['codegen'], result: LogicalType | ((t: readonly LogicalType[]) => LogicalType) = STRING, nulls: 'strict' | 'nullable' = 'strict'): ScalarFunctionDefinition {
  return scalar({ name, signatures, result, codegen, nulls });
}

type ScalarSpecSignatures = Parameters<typeof scalar>[0]['signatures'];

export function stringFunctions(): ScalarFunctionDefinition[] {
  return [
    scalar({
      name: '||',
      signatures: [['STRING', 'STRING'], ['BINARY', 'BINARY']],
      infix: true,
      result: (ts) => (isBinaryString(ts[0]!) ? DataTypes.BYTES() : { kind: 'VARCHAR', length: MAX_LENGTH, nullable: true }),
      codegen: { kind: 'strict', expr: (args, call, g) => (isBinaryString(call.operands[0]!.type) ? `${g.constant(concatBytes)}(${args[0]}, ${args[1]})` : `(${args[0]} + ${args[1]})`) },
    }),
    scalar({ name: 'CONCAT', signatures: [['STRING']], variadic: true, result: STRING, codegen: expr((a) => `(${a.join(' + ')})`) }),
    scalar({ name: 'CONCAT_WS', signatures: [['STRING', 'STRING']], variadic: true, result: STRING, nulls: 'type', codegen: fnWithNulls(concatWs) }),
    str('UPPER', [['STRING']], expr(([a]) => `${a}.toUpperCase()`), likeFirst),
    str('LOWER', [['STRING']], expr(([a]) => `${a}.toLowerCase()`), likeFirst),
    str('CHAR_LENGTH', [['STRING']], expr(([a]) => `${a}.length`), DataTypes.INT()),
    str('TRIM', [['STRING'], ['SYMBOL', 'STRING', 'STRING']], fn((...a: string[]) => (a.length === 1 ? trimChars(a[0]!, ' ', true, true) : trim(a[0]!, a[1]!, a[2]!))), likeFirst),
    str('LTRIM', [['STRING'], ['STRING', 'STRING']], fn((s: string, c: string = ' ') => trimChars(s, c, true, false)), likeFirst),
    str('RTRIM', [['STRING'], ['STRING', 'STRING']], fn((s: string, c: string = ' ') => trimChars(s, c, false, true)), likeFirst),
    str('BTRIM', [['STRING'], ['STRING', 'STRING']], fn((s: string, c: string = ' ') => trimChars(s, c, true, true)), likeFirst),
    str('SUBSTRING', [['STRING', 'INTEGER'], ['STRING', 'INTEGER', 'INTEGER']], fn(substring), likeFirst),
    str('REPLACE', [['STRING', 'STRING', 'STRING']], fn((s: string, a: string, b: string) => (a === '' ? s : s.replaceAll(a, b)))),
    str('POSITION', [['STRING', 'STRING'], ['STRING', 'STRING', 'INTEGER']], fn(locate), DataTypes.INT()),
    str('LOCATE', [['STRING', 'STRING'], ['STRING', 'STRING', 'INTEGER']], fn(locate), DataTypes.INT()),
    str('INSTR', [['STRING', 'STRING']], fn((s: string, sub: string) => s.indexOf(sub) + 1), DataTypes.INT()),
    str('LPAD', [['STRING', 'INTEGER', 'STRING']], fn((s: string, n: number, p: string) => pad(s, n, p, true)), STRING, 'nullable'),
    str('RPAD', [['STRING', 'INTEGER', 'STRING']], fn((s: string, n: number, p: string) => pad(s, n, p, false)), STRING, 'nullable'),
    str('INITCAP', [['STRING']], fn(initcap), likeFirst),
    str('REPEAT', [['STRING', 'INTEGER']], fn((s: string, n: number) => (n <= 0 ? '' : s.repeat(n)))),
    str('REVERSE', [['STRING']], fn((s: string) => [...s].reverse().join('')), likeFirst),
    str('LEFT', [['STRING', 'INTEGER']], fn((s: string, n: number) => (n <= 0 ? '' : s.slice(0, n)))),
    str('RIGHT', [['STRING', 'INTEGER']], fn((s: string, n: number) => (n <= 0 ? '' : s.slice(Math.max(0, s.length - n))))),
    str('REGEXP_EXTRACT', [['STRING', 'STRING'], ['STRING', 'STRING', 'INTEGER']], fn(regexpExtract), STRING, 'nullable'),
    str('REGEXP_REPLACE', [['STRING', 'STRING', 'STRING']], fn(regexpReplace)),
    str('REGEXP', [['STRING', 'STRING']], fn((s: string, p: string) => javaRegex(p).test(s)), DataTypes.BOOLEAN()),
    str('SPLIT_INDEX', [['STRING', 'STRING', 'INTEGER']], fn(splitIndex), STRING, 'nullable'),
    str('MD5', [['STRING'], ['BINARY']], fn(hashHex('md5')), DataTypes.CHAR(32)),
    str('SHA1', [['STRING'], ['BINARY']], fn(hashHex('sha1')), DataTypes.CHAR(40)),
    str('SHA224', [['STRING'], ['BINARY']], fn(hashHex('sha224')), DataTypes.CHAR(56)),
    str('SHA256', [['STRING'], ['BINARY']], fn(hashHex('sha256')), DataTypes.CHAR(64)),
    str('SHA384', [['STRING'], ['BINARY']], fn(hashHex('sha384')), DataTypes.CHAR(96)),
    str('SHA512', [['STRING'], ['BINARY']], fn(hashHex('sha512')), DataTypes.CHAR(128)),
    str('SHA2', [['STRING', 'INTEGER'], ['BINARY', 'INTEGER']], fn(sha2), STRING, 'nullable'),
    str('TO_BASE64', [['STRING'], ['BINARY']], fn((s: unknown) => Buffer.from(typeof s === 'string' ? Buffer.from(s, 'utf8') : (s as Uint8Array)).toString('base64'))),
    str('FROM_BASE64', [['STRING']], fn(fromBase64)),
    str('ASCII', [['STRING']], fn((s: string) => (s.length === 0 ? 0 : s.charCodeAt(0))), DataTypes.INT()),
    str('CHR', [['INTEGER']], fn((n: number) => (n < 0 ? '' : String.fromCharCode(n % 256))), DataTypes.CHAR(1)),
    str('OVERLAY', [['STRING', 'STRING', 'INTEGER'], ['STRING', 'STRING', 'INTEGER', 'INTEGER']], fn(overlay)),
    str('STR_TO_MAP', [['STRING'], ['STRING', 'STRING', 'STRING']], fn(strToMap), DataTypes.MAP(STRING, STRING)),
    str('PARSE_URL', [['STRING', 'STRING'], ['STRING', 'STRING', 'STRING']], fn(parseUrl), STRING, 'nullable'),
    str('STARTSWITH', [['STRING', 'STRING']], fn((s: string, p: string) => s.startsWith(p)), DataTypes.BOOLEAN()),
    str('ENDSWITH', [['STRING', 'STRING']], fn((s: string, p: string) => s.endsWith(p)), DataTypes.BOOLEAN()),
    scalar({ name: 'TRANSLATE', signatures: [['STRING', 'STRING', 'STRING']], result: (ts) => withNullability(STRING, ts[0]!.nullable), nulls: 'type', codegen: fnWithNulls(translate) }),
    str('REGEXP_COUNT', [['STRING', 'STRING']], fn(regexpCount), DataTypes.INT(), 'nullable'),
    str('REGEXP_INSTR', [['STRING', 'STRING']], fn(regexpInstr), DataTypes.INT(), 'nullable'),
    str('REGEXP_EXTRACT_ALL', [['STRING', 'STRING'], ['STRING', 'STRING', 'INTEGER']], fn(regexpExtractAll), DataTypes.ARRAY(STRING), 'nullable'),
    scalar({
      name: 'ELT',
      signatures: [['INTEGER', 'STRING', 'STRING'], ['INTEGER', 'BINARY', 'BINARY']],
      variadic: true,
      // The common type of the expressions (CHARs of one length stay CHAR: ELT(2, 'a', 'b') is CHAR(1)), always
      // nullable: an index out of range gives NULL.
      result: (ts) => commonType(ts.slice(1)) ?? STRING,
      nulls: 'nullable',
      codegen: fnWithNulls(elt),
    }),
    str('URL_ENCODE', [['STRING']], fn((s: string) => encodeURIComponent(s).replace(/%20/g, '+'))),
    str('URL_DECODE', [['STRING']], fn((s: string) => decodeURIComponent(s.replace(/\+/g, ' ')))),
  ];
}
