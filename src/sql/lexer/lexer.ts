import type { SourceText } from '../source-text.js';
import type { Token, TokenType } from './token.js';

const SYMBOLS_2 = new Set(['||', '<>', '!=', '<=', '>=', '=>', '==']);
const SYMBOLS_1 = new Set(['(', ')', '[', ']', '{', '}', ',', ';', '.', '+', '-', '*', '/', '%', '=', '<', '>', '?', ':', '|']);

function isWordStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c > '\u007f';
}

function isWordPart(c: string): boolean {
  return isWordStart(c) || (c >= '0' && c <= '9') || c === '$';
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/**
 * Turns `source.text[start, end)` into tokens, ending with one `eof` token at `end`. Comments and
 * whitespace are skipped; `/*+ ... *\/` hints become hint-start/hint-end tokens around their content.
 * Positions are in the whole source, so errors point at the file's line. Throws SqlParseError for
 * unterminated strings, identifiers and comments, and for characters that start no token.
 */
export function tokenize(source: SourceText, start = 0, end = source.text.length): Token[] {
  const text = source.text;
  const tokens: Token[] = [];
  let i = start;
  let inHint = false;

  const push = (type: TokenType, from: number, to: number, value: string): void => {
    tokens.push({
      type,
      text: text.slice(from, to),
      value,
      upper: type === 'word' ? value.toUpperCase() : value,
      pos: source.positionAt(from),
      end: to,
    });
  };

  // Finds the closing quote with indexOf and copies runs with slice: linear in the literal's length
  // (a character-by-character `value += c` made 2 M-character literals take seconds).
  const readQuoted = (from: number, quote: string, what: string): { value: string; to: number } => {
    let j = from + 1;
    const parts: string[] = [];
    for (;;) {
      const close = text.indexOf(quote, j);
      if (close < 0 || close >= end) {
        const p = source.positionAt(from);
        throw source.errorAt(from, `Unterminated ${what} starting at line ${p.line}, column ${p.column}`);
      }
      parts.push(text.slice(j, close));
      if (text[close + 1] === quote && close + 1 < end) {
        parts.push(quote);
        j = close + 2;
        continue;
      }
      return { value: parts.length === 1 ? parts[0]! : parts.join(''), to: close + 1 };
    }
  };

  while (i < end) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '-' && text[i + 1] === '-') {
      while (i < end && text[i] !== '\n' && text[i] !== '\r') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      if (text[i + 2] === '+' && !inHint) {
        push('hint-start', i, i + 3, '/*+');
        inHint = true;
        i += 3;
        continue;
      }
      const close = text.indexOf('*/', i + 2);
      if (close < 0 || close + 2 > end) {
        const p = source.positionAt(i);
        throw source.errorAt(i, `Unterminated comment starting at line ${p.line}, column ${p.column}`);
      }
      i = close + 2;
      continue;
    }
    if (inHint && c === '*' && text[i + 1] === '/') {
      push('hint-end', i, i + 2, '*/');
      inHint = false;
      i += 2;
      continue;
    }
    if (c === "'") {
      const { value, to } = readQuoted(i, "'", 'string literal');
      push('string', i, to, value);
      i = to;
      continue;
    }
    if (c === '"') {
      const { value, to } = readQuoted(i, '"', 'string literal');
      push('string', i, to, value);
      i = to;
      continue;
    }
    if (c === '`') {
      const { value, to } = readQuoted(i, '`', 'quoted identifier');
      push('quoted-ident', i, to, value);
      i = to;
      continue;
    }
    if ((c === 'x' || c === 'X') && text[i + 1] === "'") {
      const { value, to } = readQuoted(i + 1, "'", 'binary string literal');
      if (!/^[0-9a-fA-F\s]*$/.test(value)) throw source.errorAt(i, `Binary literal string must contain only characters '0' - '9', 'A' - 'F'`);
      push('binary-string', i, to, value.replace(/\s+/g, ''));
      i = to;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(text[i + 1]))) {
      let j = i;
      while (j < end && isDigit(text[j])) j++;
      if (text[j] === '.' && j < end) {
        j++;
        while (j < end && isDigit(text[j])) j++;
      }
      if ((text[j] === 'e' || text[j] === 'E') && j < end) {
        let k = j + 1;
        if (text[k] === '+' || text[k] === '-') k++;
        if (isDigit(text[k]) && k < end) {
          j = k;
          while (j < end && isDigit(text[j])) j++;
        }
      }
      push('number', i, j, text.slice(i, j));
      i = j;
      continue;
    }
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < end && isWordPart(text[j]!)) j++;
      push('word', i, j, text.slice(i, j));
      i = j;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (SYMBOLS_2.has(two) && i + 2 <= end) {
      push('symbol', i, i + 2, two);
      i += 2;
      continue;
    }
    if (SYMBOLS_1.has(c)) {
      push('symbol', i, i + 1, c);
      i++;
      continue;
    }
    const p = source.positionAt(i);
    throw source.errorAt(i, `Lexical error at line ${p.line}, column ${p.column}. Encountered: "${c}"`);
  }
  if (inHint) {
    const open = [...tokens].reverse().find((t) => t.type === 'hint-start')!;
    throw source.errorAt(open.pos.offset, `Unterminated hint starting at line ${open.pos.line}, column ${open.pos.column}`);
  }
  tokens.push({ type: 'eof', text: '', value: '<EOF>', upper: '<EOF>', pos: source.positionAt(end), end });
  return tokens;
}
