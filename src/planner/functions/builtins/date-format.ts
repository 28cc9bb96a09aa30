import { MS_PER_DAY } from '../../../types/values/temporal.js';

/**
 * Java SimpleDateFormat / DateTimeFormatter patterns for DATE_FORMAT, TO_TIMESTAMP, UNIX_TIMESTAMP and
 * FROM_UNIXTIME over UTC wall-clock epoch ms. Patterns compile once (cached) to a list of tokens.
 */

type Token = { readonly kind: 'lit'; readonly text: string } | { readonly kind: 'field'; readonly letter: string; readonly width: number };

const cache = new Map<string, readonly Token[]>();

function tokenize(pattern: string): readonly Token[] {
  let t = cache.get(pattern);
  if (t !== undefined) return t;
  const out: Token[] = [];
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      const text = end < 0 ? pattern.slice(i + 1) : pattern.slice(i + 1, end);
      out.push({ kind: 'lit', text: text === '' ? "'" : text });
      i = end < 0 ? pattern.length : end + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (pattern[j] === c) j++;
      out.push({ kind: 'field', letter: c, width: j - i });
      i = j;
    } else {
      out.push({ kind: 'lit', text: c });
      i++;
    }
  }
  t = out;
  cache.set(pattern, t);
  return t;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function pad(n: number, w: number): string {
  const s = String(Math.abs(n)).padStart(w, '0');
  return n < 0 ? `-${s}` : s;
}

/**
 * Format UTC wall-clock epoch ms with a Java pattern (`yyyy-MM-dd HH:mm:ss`); `nanoOfMilli` gives the digits of
 * `S` beyond the third (a TIMESTAMP(9) formats with `SSSSSSSSS` to all nine, as DateTimeFormatter).
 */
export function formatWithPattern(ms: number, pattern: string, nanoOfMilli = 0): string {
  const d = new Date(ms);
  let out = '';
  for (const tok of tokenize(pattern)) {
    if (tok.kind === 'lit') {
      out += tok.text;
      continue;
    }
    const w = tok.width;
    switch (tok.letter) {
      case 'y':
      case 'u':
        out += w === 2 ? pad(d.getUTCFullYear() % 100, 2) : pad(d.getUTCFullYear(), w);
        break;
      case 'M':
      case 'L':
        out += w >= 4 ? MONTHS[d.getUTCMonth()] : w === 3 ? MONTHS[d.getUTCMonth()]!.slice(0, 3) : pad(d.getUTCMonth() + 1, w);
        break;
      case 'd':
        out += pad(d.getUTCDate(), w);
        break;
      case 'D': {
        const doy = Math.floor((ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / MS_PER_DAY) + 1;
        out += pad(doy, w);
        break;
      }
      case 'H':
        out += pad(d.getUTCHours(), w);
        break;
      case 'h':
        out += pad(d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12, w);
        break;
      case 'k':
        out += pad(d.getUTCHours() === 0 ? 24 : d.getUTCHours(), w);
        break;
      case 'K':
        out += pad(d.getUTCHours() % 12, w);
        break;
      case 'm':
        out += pad(d.getUTCMinutes(), w);
        break;
      case 's':
        out += pad(d.getUTCSeconds(), w);
        break;
      case 'S':
        out += (pad(d.getUTCMilliseconds(), 3) + pad(nanoOfMilli, 6)).slice(0, w);
        break;
      case 'a':
        out += d.getUTCHours() < 12 ? 'AM' : 'PM';
        break;
      case 'E':
        out += w >= 4 ? DAYS[d.getUTCDay()] : DAYS[d.getUTCDay()]!.slice(0, 3);
        break;
      case 'Z':
        out += '+0000';
        break;
      case 'X':
        out += 'Z';
        break;
      default:
        out += tok.letter.repeat(w);
    }
  }
  return out;
}

/** Parse text with a Java pattern to UTC wall-clock epoch ms; undefined when it does not match. */
export function parseWithPattern(text: string, pattern: string): number | undefined {
  let y = 1970;
  let mo = 1;
  let day = 1;
  let h = 0;
  let mi = 0;
  let s = 0;
  let ms = 0;
  let pm: boolean | undefined;
  let pos = 0;
  const toks = tokenize(pattern);
  for (let ti = 0; ti < toks.length; ti++) {
    const tok = toks[ti]!;
    if (tok.kind === 'lit') {
      if (!text.startsWith(tok.text, pos)) return undefined;
      pos += tok.text.length;
      continue;
    }
    if (tok.letter === 'a') {
      const ap = text.slice(pos, pos + 2).toUpperCase();
      if (ap !== 'AM' && ap !== 'PM') return undefined;
      pm = ap === 'PM';
      pos += 2;
      continue;
    }
    // Adjacent numeric fields (yyyyMMdd) take exactly their width; otherwise digits greedily.
    const nextIsField = toks[ti + 1]?.kind === 'field';
    const m = (nextIsField ? new RegExp(`^[+-]?\\d{${tok.width}}`) : /^[+-]?\d+/).exec(text.slice(pos));
    if (m === null) return undefined;
    const n = Number(m[0]);
    pos += m[0].length;
    switch (tok.letter) {
      case 'y':
      case 'u':
        y = tok.width === 2 ? 2000 + n : n;
        break;
      case 'M':
        mo = n;
        break;
      case 'd':
        day = n;
        break;
      case 'H':
      case 'k':
        h = n;
        break;
      case 'h':
      case 'K':
        h = n % 12;
        break;
      case 'm':
        mi = n;
        break;
      case 's':
        s = n;
        break;
      case 'S':
        ms = Number((m[0] + '00').slice(0, 3));
        break;
      default:
        return undefined;
    }
  }
  if (pos !== text.length) return undefined;
  if (pm === true) h += 12;
  if (mo < 1 || mo > 12 || day < 1 || day > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, day);
  if (date.getUTCDate() !== day) return undefined;
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}
