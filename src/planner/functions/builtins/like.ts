import { ExecutionError } from '../../../errors/sluice-error.js';

/** LIKE and SIMILAR TO patterns as JS regular expressions. Compiled once per pattern, cached by callers. */

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/;

/** The escape character: one code point (an emoji too); an empty ESCAPE '' means none, as in Flink 2.3. */
function escapeChar(esc: string | null): string | null {
  if (esc === null || esc === '') return null;
  if ([...esc].length !== 1) throw new ExecutionError(`Invalid escape character '${esc}': it must be exactly one character.`);
  return esc;
}

/**
 * `%` any sequence, `_` one character; `esc` makes the next `%`, `_` or itself literal. Without an ESCAPE clause
 * there is no escape character at all, as in Flink (SqlLikeUtils.sqlToRegexLike with a null escape): `'x%y' LIKE
 * 'x\\%y'` is FALSE. Matches the whole string, across line breaks.
 */
export function likeToRegExp(pattern: string, esc: string | null, ignoreCase = false): RegExp {
  const e = escapeChar(esc);
  let out = '';
  // By code points, so that an emoji escape character matches. The escape character may only precede '%', '_' or
  // itself (Calcite's SqlLikeUtils: Flink 2.3 refuses 'te_st' LIKE 'te_st' ESCAPE '_' with "Invalid escape sequence").
  const cs = [...pattern];
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i]!;
    if (e !== null && c === e) {
      const next = cs[i + 1];
      if (next === undefined || (next !== '%' && next !== '_' && next !== e)) throw new ExecutionError(`Invalid escape sequence '${pattern}', ${i}`);
      out += REGEX_SPECIAL.test(next) ? `\\${next}` : next;
      i++;
    } else if (c === '%') {
      out += '.*';
    } else if (c === '_') {
      out += '.';
    } else {
      out += REGEX_SPECIAL.test(c) ? `\\${c}` : c;
    }
  }
  return new RegExp(`^${out}$`, ignoreCase ? 'isu' : 'su');
}

/**
 * SQL regular expression of SIMILAR TO: LIKE's wildcards plus `|`, `*`, `+`, `?`, `{}`, `()`, `[]`, and `.` as any
 * character, as in Flink (Calcite's SqlFunctions.similar: 'Hello' SIMILAR TO 'H.llo' is TRUE there).
 */
export function similarToRegExp(pattern: string, esc: string | null): RegExp {
  const e = escapeChar(esc);
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (e !== null && c === e) {
      const next = pattern[i + 1] ?? '';
      out += REGEX_SPECIAL.test(next) || next === '%' || next === '_' ? (next === '%' || next === '_' ? next : `\\${next}`) : next;
      i++;
    } else if (c === '%') {
      out += '.*';
    } else if (c === '_') {
      out += '.';
    } else if (c === '^' || c === '$' || c === '\\' || c === '/') {
      out += `\\${c}`;
    } else {
      out += c;
    }
  }
  try {
    return new RegExp(`^(?:${out})$`, 'su');
  } catch {
    throw new ExecutionError(`Invalid regular expression in SIMILAR TO: '${pattern}'.`);
  }
}
