import type { SqlParseError } from '../../errors/sluice-error.js';
import type { Expression } from '../ast/expressions.js';
import type { Hint, Name, ObjectName, Property } from '../ast/names.js';
import type { Query } from '../ast/query.js';
import { isReserved } from '../lexer/keywords.js';
import type { Token } from '../lexer/token.js';
import type { SourcePosition } from '../position.js';
import type { SourceText } from '../source-text.js';

const MAX_EXPECTED_SHOWN = 12;

/**
 * How deeply expressions and queries may nest: parentheses, function arguments, subqueries, CASE,
 * unary operators. Each level costs a few stack frames here and in every later stage, so past this
 * a statement gets a SqlParseError with its position instead of a stack overflow. Long chains of
 * binary operators (`a + b + c ...`, `x OR y OR ...`) are parsed in a loop and do not count.
 */
export const MAX_NESTING_DEPTH = 1000;

/** The statement's own query and its outermost expression are counted too but are not "nesting". */
const COUNTED_LIMIT = MAX_NESTING_DEPTH + 2;

/**
 * Token cursor and the small grammar pieces every layer needs (names, strings, properties, hints).
 * It remembers what was expected at the furthest token any rule looked at, so an error reads like
 * Calcite's: `Encountered "FORM" at line 3, column 10. Was expecting one of: "FROM", ",", ...`.
 * The layers above extend it: types -> special forms -> expressions -> queries -> DDL -> statements.
 */
export abstract class ParserBase {
  protected i = 0;
  private expectedAt = -1;
  protected nesting = 0;
  /** Labels (or groups of labels) recorded at `expectedAt`, deduplicated only when an error is built. */
  private readonly expected: (string | readonly string[])[] = [];

  constructor(
    protected readonly source: SourceText,
    protected readonly tokens: readonly Token[],
  ) {}

  /** A full expression (lowest precedence: OR). */
  abstract parseExpression(): Expression;
  /** A query expression with its WITH, set operations and ORDER BY / LIMIT. */
  abstract parseQuery(): Query;

  protected peek(ahead = 0): Token {
    return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)]!;
  }

  protected next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') this.i++;
    return t;
  }

  protected get pos(): SourcePosition {
    return this.peek().pos;
  }

  /** The last character (inclusive) of the last token consumed, for a node's `end`. */
  protected get lastEnd(): SourcePosition {
    const t = this.tokens[this.i - 1];
    return t === undefined ? this.pos : this.source.positionAt(t.end - 1);
  }

  /** Sets `e.end` to the last token consumed, unless an inner rule set it already (`(a)` ends at `a`). */
  protected ended<T extends Expression>(e: T): T {
    if (e.end === undefined) (e as { end?: SourcePosition }).end = this.lastEnd;
    return e;
  }

  /** Notes what the grammar would accept at the current token (a label or a group of labels). */
  protected record(label: string | readonly string[]): void {
    if (this.i > this.expectedAt) {
      this.expectedAt = this.i;
      this.expected.length = 0;
    }
    if (this.i === this.expectedAt && this.expected.length < 10_000) this.expected.push(label);
  }

  /** True when the current token is the keyword (any case); records it as expected. */
  protected isKeyword(kw: string): boolean {
    this.record(`"${kw}"`);
    const t = this.peek();
    return t.type === 'word' && t.upper === kw;
  }

  /** Keyword test at a lookahead distance without recording expectations. */
  protected isKeywordAt(ahead: number, kw: string): boolean {
    const t = this.peek(ahead);
    return t.type === 'word' && t.upper === kw;
  }

  protected isSymbolAt(ahead: number, sym: string): boolean {
    const t = this.peek(ahead);
    return t.type === 'symbol' && t.value === sym;
  }

  /**
   * Consumes the keyword sequence if all of it is there; otherwise consumes nothing. A partial
   * match records the missing word where it was missing (`ORDER a` expects "BY" at `a`).
   */
  protected acceptKeywords(...kws: string[]): boolean {
    const start = this.i;
    for (const kw of kws) {
      if (!this.isKeyword(kw)) {
        this.i = start;
        return false;
      }
      this.i++;
    }
    return true;
  }

  protected expectKeywords(...kws: string[]): Token {
    const first = this.peek();
    for (const kw of kws) {
      if (!this.isKeyword(kw)) throw this.unexpected();
      this.next();
    }
    return first;
  }

  protected isSymbol(sym: string): boolean {
    this.record(`"${sym}"`);
    const t = this.peek();
    return t.type === 'symbol' && t.value === sym;
  }

  protected acceptSymbol(sym: string): boolean {
    if (!this.isSymbol(sym)) return false;
    this.next();
    return true;
  }

  protected expectSymbol(sym: string): Token {
    if (!this.isSymbol(sym)) throw this.unexpected();
    return this.next();
  }

  /**
   * Enters `levels` levels of nesting at the current token; throws a SqlParseError past
   * MAX_NESTING_DEPTH. Every call is paired with `leaveNesting(levels)` on the way out;
   * no `finally` is needed because a parse error abandons the parser (nothing in it catches).
   */
  protected enterNesting(levels = 1): void {
    this.nesting += levels;
    if (this.nesting > COUNTED_LIMIT) {
      const pos = this.pos;
      throw this.errorAt(pos, `Expression or query nesting deeper than ${MAX_NESTING_DEPTH} levels`);
    }
  }

  protected leaveNesting(levels = 1): void {
    this.nesting -= levels;
  }

  /**
   * A subquery inside an expression (`(SELECT ..)`, EXISTS, IN, ANY): the expression around it
   * already counted this level, so the query does not count it again.
   */
  protected parseQueryInExpression(): Query {
    this.nesting--;
    const q = this.parseQuery();
    this.nesting++;
    return q;
  }

  /** The Calcite-style "Encountered ... Was expecting" error at the furthest point examined. */
  protected unexpected(): SqlParseError {
    const at = Math.max(this.i, this.expectedAt);
    const t = this.tokens[Math.min(at, this.tokens.length - 1)]!;
    const shown = t.type === 'eof' ? '<EOF>' : t.text;
    let message = `Encountered "${shown}" at line ${t.pos.line}, column ${t.pos.column}.`;
    const expected = new Set(this.expected.flat());
    if (at === this.expectedAt && expected.size > 0) {
      const list = [...expected];
      const head = list.slice(0, MAX_EXPECTED_SHOWN).join(', ');
      message += ` Was expecting one of: ${head}${list.length > MAX_EXPECTED_SHOWN ? ', ...' : ''}`;
    }
    return this.source.errorAt(t.pos.offset, message);
  }

  /** An error with a message of its own at a token or position. */
  protected errorAt(pos: SourcePosition, message: string): SqlParseError {
    return this.source.errorAt(pos.offset, `${message} (at line ${pos.line}, column ${pos.column})`);
  }

  /** A name: an unreserved word or any backquoted text. */
  protected isNameStart(ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.type === 'quoted-ident' || (t.type === 'word' && !isReserved(t.value));
  }

  protected parseName(): Name {
    this.record('<IDENTIFIER>');
    if (!this.isNameStart()) throw this.unexpected();
    const t = this.next();
    return { value: t.value, pos: t.pos };
  }

  /** After a dot any word is a name (`t.value` needs no backquotes there). */
  protected parseNamePart(): string {
    this.record('<IDENTIFIER>');
    const t = this.peek();
    if (t.type !== 'word' && t.type !== 'quoted-ident') throw this.unexpected();
    this.next();
    return t.value;
  }

  protected parseObjectName(): ObjectName {
    const first = this.parseName();
    const parts = [first.value];
    while (this.isSymbol('.')) {
      this.next();
      parts.push(this.parseNamePart());
    }
    return { parts, pos: first.pos, end: this.lastEnd };
  }

  /** `(a, b, c)` */
  protected parseParenNameList(): Name[] {
    this.expectSymbol('(');
    const names = [this.parseName()];
    while (this.acceptSymbol(',')) names.push(this.parseName());
    this.expectSymbol(')');
    return names;
  }

  protected isString(): boolean {
    this.record('<QUOTED_STRING>');
    return this.peek().type === 'string';
  }

  protected parseString(): string {
    if (!this.isString()) throw this.unexpected();
    return this.next().value;
  }

  protected parseUnsignedInteger(): number {
    this.record('<UNSIGNED_INTEGER_LITERAL>');
    const t = this.peek();
    if (t.type !== 'number' || !/^\d+$/.test(t.value)) throw this.unexpected();
    this.next();
    return Number(t.value);
  }

  /** `('k' = 'v', ...)`; an empty list is allowed. */
  protected parseProperties(): Property[] {
    this.expectSymbol('(');
    const props: Property[] = [];
    if (this.acceptSymbol(')')) return props;
    do {
      const pos = this.pos;
      const key = this.parseString();
      this.expectSymbol('=');
      const value = this.parseString();
      props.push({ key, value, pos });
    } while (this.acceptSymbol(','));
    this.expectSymbol(')');
    return props;
  }

  protected parseCommentClause(): string | null {
    return this.acceptKeywords('COMMENT') ? this.parseString() : null;
  }

  /** Zero or more `/*+ NAME(args), ... *\/` blocks. */
  protected parseHints(): Hint[] {
    const hints: Hint[] = [];
    while (this.peek().type === 'hint-start') {
      this.next();
      do {
        const pos = this.pos;
        const name = this.parseNamePart();
        const kvOptions: Property[] = [];
        const listOptions: string[] = [];
        if (this.acceptSymbol('(')) {
          if (!this.isSymbol(')')) {
            do {
              const p = this.pos;
              const t = this.next();
              if (t.type === 'string' && this.acceptSymbol('=')) {
                kvOptions.push({ key: t.value, value: this.parseString(), pos: p });
              } else if (t.type === 'string' || t.type === 'word' || t.type === 'quoted-ident' || t.type === 'number') {
                let v = t.value;
                while (t.type !== 'string' && this.acceptSymbol('.')) v += `.${this.parseNamePart()}`;
                listOptions.push(v);
              } else {
                this.i--;
                throw this.unexpected();
              }
            } while (this.acceptSymbol(','));
          }
          this.expectSymbol(')');
        }
        hints.push({ name, kvOptions, listOptions, pos });
      } while (this.acceptSymbol(','));
      if (this.peek().type !== 'hint-end') {
        this.record('"*/"');
        throw this.unexpected();
      }
      this.next();
    }
    return hints;
  }

  /** `IF NOT EXISTS` */
  protected parseIfNotExists(): boolean {
    return this.acceptKeywords('IF', 'NOT', 'EXISTS');
  }

  protected parseIfExists(): boolean {
    return this.acceptKeywords('IF', 'EXISTS');
  }
}
