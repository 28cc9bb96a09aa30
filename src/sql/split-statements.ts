import type { SourcePosition } from './position.js';
import { SourceText } from './source-text.js';

/** One statement of a script, without its terminating `;`. */
export interface SplitStatement {
  /** The statement text, from its first significant character to just before its `;`. */
  readonly text: string;
  /** Where `text` starts in the whole script. */
  readonly pos: SourcePosition;
  /** Offset just past `text` in the whole script. */
  readonly end: number;
}

/**
 * Splits a script at top-level `;`. Quotes ('' escapes, "..." and `...`), `--` and `/* *\/` comments
 * are respected, and `EXECUTE STATEMENT SET BEGIN ... END;` (also after EXPLAIN) stays one statement
 * (a CASE ... END inside it does not close it). `BEGIN STATEMENT SET;` and `END;` split normally: the REPL form runs them
 * one by one. Statements holding only comments are dropped. Throws SqlParseError for unterminated
 * quotes, comments and statement-set blocks, at the file's line.
 */
export function splitStatements(script: string | SourceText): SplitStatement[] {
  const source = typeof script === 'string' ? new SourceText(script) : script;
  const text = source.text;
  const out: SplitStatement[] = [];
  let stmtStart = -1; // offset of the first significant char of the current statement
  let words: string[] = []; // first words of the current statement, upper-cased, until a block starts
  let inBlock = false;
  let caseDepth = 0;
  let blockClosed = false;
  let i = 0;

  const finish = (endOffset: number): void => {
    if (stmtStart >= 0) {
      let e = endOffset;
      while (e > stmtStart && /\s/.test(text[e - 1]!)) e--;
      out.push({ text: text.slice(stmtStart, e), pos: source.positionAt(stmtStart), end: e });
    }
    stmtStart = -1;
    words = [];
    inBlock = false;
    blockClosed = false;
    caseDepth = 0;
  };

  const skipQuoted = (from: number, quote: string, what: string): number => {
    let j = from + 1;
    for (;;) {
      if (j >= text.length) {
        const p = source.positionAt(from);
        throw source.errorAt(from, `Unterminated ${what} starting at line ${p.line}, column ${p.column}`);
      }
      if (text[j] === quote) {
        if (text[j + 1] === quote) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
  };

  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '-' && text[i + 1] === '-') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) {
        const p = source.positionAt(i);
        throw source.errorAt(i, `Unterminated comment starting at line ${p.line}, column ${p.column}`);
      }
      // A hint belongs to its statement; a plain comment does not start one.
      if (text[i + 2] === '+' && stmtStart < 0) stmtStart = i;
      i = close + 2;
      continue;
    }
    if (c === ';') {
      if (inBlock && !blockClosed) {
        i++;
        continue;
      }
      finish(i);
      i++;
      continue;
    }
    if (stmtStart < 0) stmtStart = i;
    if (c === "'" || c === '"' || c === '`') {
      const what = c === '`' ? 'quoted identifier' : 'string literal';
      i = skipQuoted(i, c, what);
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[A-Za-z0-9_$]/.test(text[j]!)) j++;
      const word = text.slice(i, j).toUpperCase();
      if (inBlock) {
        if (!blockClosed && word === 'CASE') caseDepth++;
        else if (!blockClosed && word === 'END') {
          if (caseDepth > 0) caseDepth--;
          else blockClosed = true;
        }
      } else if (words.length < 8) {
        // EXECUTE STATEMENT SET BEGIN, and EXPLAIN [details] [EXECUTE] STATEMENT SET BEGIN
        words.push(word);
        if (words.length >= 3 && words.slice(-3).join(' ') === 'STATEMENT SET BEGIN' && words[0] !== 'BEGIN') inBlock = true;
      }
      i = j;
      continue;
    }
    i++;
  }
  if (inBlock && !blockClosed) {
    const p = source.positionAt(stmtStart);
    throw source.errorAt(
      stmtStart,
      `Unterminated statement set starting at line ${p.line}, column ${p.column}: EXECUTE STATEMENT SET BEGIN needs a matching END`,
    );
  }
  finish(text.length);
  return out;
}
