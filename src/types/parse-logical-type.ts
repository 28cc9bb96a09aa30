import { ValidationError } from '../errors/sluice-error.js';
import { DataTypes } from './data-types.js';
import {
  CHAR_DEFAULT_LENGTH,
  DECIMAL_DEFAULT_PRECISION,
  DECIMAL_DEFAULT_SCALE,
  INTERVAL_DEFAULT_DAY_PRECISION,
  INTERVAL_DEFAULT_FRACTIONAL_PRECISION,
  INTERVAL_DEFAULT_YEAR_PRECISION,
  TIME_DEFAULT_PRECISION,
  TIMESTAMP_DEFAULT_PRECISION,
  withNullability,
} from './logical-type.js';
import type { DayTimeResolution, LogicalType, RowField, TimeAttribute } from './logical-type.js';

type TokenKind = 'ident' | 'quoted' | 'int' | 'string' | 'symbol' | 'end';

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** 0-based offset in the input. */
  readonly offset: number;
}

/** Thrown for a malformed type string; `position` is the 1-based character the parser stopped at. */
export class TypeParseError extends ValidationError {
  constructor(
    message: string,
    readonly position: number,
    readonly input: string,
  ) {
    super(`Could not parse type at position ${position}: ${message} Input type string: ${input}`);
  }
}

/**
 * Parse a type string as Flink's `LogicalTypeParser` does: every output of `typeToString` plus the SQL
 * spellings (`INTEGER`, `DEC`, `NUMERIC`, `TIMESTAMP(3) WITH LOCAL TIME ZONE`, `INT ARRAY`, `ROW(a INT)`,
 * backtick-quoted field names, field descriptions `ROW<a INT 'the a'>`). Keywords are case-insensitive.
 *
 * @throws TypeParseError (a ValidationError) naming the position of the first problem.
 * @example parseLogicalType('ROW<a INT NOT NULL, b ARRAY<STRING>>')
 */
export function parseLogicalType(text: string): LogicalType {
  return new TypeParser(text).parseAll();
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < text.length && /[A-Za-z0-9_$]/.test(text[i]!)) i++;
      tokens.push({ kind: 'ident', text: text.slice(start, i), offset: start });
    } else if (/[0-9]/.test(c)) {
      const start = i;
      while (i < text.length && /[0-9]/.test(text[i]!)) i++;
      tokens.push({ kind: 'int', text: text.slice(start, i), offset: start });
    } else if (c === '`' || c === "'") {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new TypeParseError(`Unterminated ${c === '`' ? 'identifier' : 'string'}.`, start + 1, text);
        if (text[i] === c) {
          if (text[i + 1] === c) {
            value += c;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i];
        i++;
      }
      tokens.push({ kind: c === '`' ? 'quoted' : 'string', text: value, offset: start });
    } else if ('<>(),*:'.includes(c)) {
      tokens.push({ kind: 'symbol', text: c, offset: i });
      i++;
    } else {
      throw new TypeParseError(`Unexpected character '${c}'.`, i + 1, text);
    }
  }
  tokens.push({ kind: 'end', text: '', offset: text.length });
  return tokens;
}

class TypeParser {
  private readonly tokens: Token[];
  private pos = 0;

  constructor(private readonly text: string) {
    this.tokens = tokenize(text);
  }

  parseAll(): LogicalType {
    const t = this.parseType();
    if (this.peek().kind !== 'end') this.fail(`Unexpected token '${this.peek().text}'.`);
    return t;
  }

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'end') this.pos++;
    return t;
  }

  private fail(message: string, token: Token = this.peek()): never {
    throw new TypeParseError(message, token.offset + 1, this.text);
  }

  private isKeyword(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'ident' && t.text.toUpperCase() === word;
  }

  private acceptKeyword(word: string): boolean {
    if (this.isKeyword(word)) {
      this.pos++;
      return true;
    }
    return false;
  }

  private expectKeyword(word: string): void {
    if (!this.acceptKeyword(word)) this.fail(`Expected '${word}' but found ${this.describe(this.peek())}.`);
  }

  private acceptSymbol(s: string): boolean {
    const t = this.peek();
    if (t.kind === 'symbol' && t.text === s) {
      this.pos++;
      return true;
    }
    return false;
  }

  private expectSymbol(s: string): void {
    if (!this.acceptSymbol(s)) this.fail(`Expected '${s}' but found ${this.describe(this.peek())}.`);
  }

  private describe(t: Token): string {
    return t.kind === 'end' ? 'the end of the input' : `'${t.text}'`;
  }

  private expectInt(): number {
    const t = this.peek();
    if (t.kind !== 'int') this.fail(`Expected a number but found ${this.describe(t)}.`);
    this.pos++;
    const n = Number(t.text);
    if (!Number.isSafeInteger(n)) this.fail(`Number '${t.text}' is too large.`, t);
    return n;
  }

  /** `(n)` if present, else `fallback`. */
  private optionalPrecision(fallback: number): number {
    if (!this.acceptSymbol('(')) return fallback;
    const n = this.expectInt();
    this.expectSymbol(')');
    return n;
  }

  /** Wrap range errors of DataTypes constructors with the position of the type. */
  private build<T>(start: Token, make: () => T): T {
    try {
      return make();
    } catch (e) {
      if (e instanceof ValidationError && !(e instanceof TypeParseError)) this.fail(e.message, start);
      throw e;
    }
  }

  private parseType(): LogicalType {
    let t = this.parseBase();
    // Postfix collection syntax: `INT ARRAY`, `STRING MULTISET`, applied after the element's nullability.
    for (;;) {
      t = this.parseNullability(t);
      if (this.acceptKeyword('ARRAY')) t = DataTypes.ARRAY(t);
      else if (this.acceptKeyword('MULTISET')) t = DataTypes.MULTISET(t);
      else break;
    }
    return this.parseTimeAttribute(t);
  }

  private parseNullability(t: LogicalType): LogicalType {
    if (this.isKeyword('NOT') && this.isKeyword('NULL', 1)) {
      const notTok = this.next();
      this.next();
      if (t.kind === 'NULL') this.fail('The NULL type cannot be NOT NULL.', notTok);
      return withNullability(t, false);
    }
    if (this.acceptKeyword('NULL')) return withNullability(t, true);
    return t;
  }

  private parseTimeAttribute(t: LogicalType): LogicalType {
    const star = this.peek();
    if (!this.acceptSymbol('*')) return t;
    const word = this.next();
    const attr = word.kind === 'ident' ? word.text.toUpperCase() : '';
    if (attr !== 'ROWTIME' && attr !== 'PROCTIME') this.fail(`Expected ROWTIME or PROCTIME but found ${this.describe(word)}.`, word);
    this.expectSymbol('*');
    if (t.kind !== 'TIMESTAMP' && t.kind !== 'TIMESTAMP_LTZ') this.fail('Only TIMESTAMP and TIMESTAMP_LTZ can be time attributes.', star);
    return { ...t, timeAttribute: attr as TimeAttribute };
  }

  private parseBase(): LogicalType {
    const start = this.peek();
    if (start.kind !== 'ident') this.fail(`Expected a type but found ${this.describe(start)}.`);
    this.pos++;
    const word = start.text.toUpperCase();
    switch (word) {
      case 'BOOLEAN':
      case 'TINYINT':
      case 'SMALLINT':
      case 'BIGINT':
      case 'FLOAT':
      case 'DATE':
      case 'VARIANT':
        return DataTypes[word]();
      case 'NULL':
        return DataTypes.NULL();
      case 'INT':
      case 'INTEGER':
        return DataTypes.INT();
      case 'REAL':
        return DataTypes.FLOAT();
      case 'DOUBLE':
        this.acceptKeyword('PRECISION');
        return DataTypes.DOUBLE();
      case 'DECIMAL':
      case 'DEC':
      case 'NUMERIC': {
        let precision = DECIMAL_DEFAULT_PRECISION;
        let scale = DECIMAL_DEFAULT_SCALE;
        if (this.acceptSymbol('(')) {
          precision = this.expectInt();
          if (this.acceptSymbol(',')) scale = this.expectInt();
          this.expectSymbol(')');
        }
        return this.build(start, () => DataTypes.DECIMAL(precision, scale));
      }
      case 'CHAR':
      case 'CHARACTER': {
        if (this.acceptKeyword('VARYING')) {
          const n = this.optionalPrecision(1);
          return this.build(start, () => DataTypes.VARCHAR(n));
        }
        const n = this.optionalPrecision(CHAR_DEFAULT_LENGTH);
        return this.build(start, () => DataTypes.CHAR(n));
      }
      case 'VARCHAR': {
        const n = this.optionalPrecision(1);
        return this.build(start, () => DataTypes.VARCHAR(n));
      }
      case 'STRING':
        return DataTypes.STRING();
      case 'BINARY': {
        const n = this.optionalPrecision(1);
        return this.build(start, () => DataTypes.BINARY(n));
      }
      case 'VARBINARY': {
        const n = this.optionalPrecision(1);
        return this.build(start, () => DataTypes.VARBINARY(n));
      }
      case 'BYTES':
        return DataTypes.BYTES();
      case 'TIME': {
        const p = this.optionalPrecision(TIME_DEFAULT_PRECISION);
        this.parseWithoutTimeZone();
        return this.build(start, () => DataTypes.TIME(p));
      }
      case 'TIMESTAMP': {
        const p = this.optionalPrecision(TIMESTAMP_DEFAULT_PRECISION);
        if (this.isKeyword('WITH')) {
          this.next();
          const local = this.peek();
          if (!this.acceptKeyword('LOCAL')) this.fail('TIMESTAMP WITH TIME ZONE is not supported; use TIMESTAMP_LTZ.', local);
          this.expectKeyword('TIME');
          this.expectKeyword('ZONE');
          return this.build(start, () => DataTypes.TIMESTAMP_LTZ(p));
        }
        this.parseWithoutTimeZone();
        return this.build(start, () => DataTypes.TIMESTAMP(p));
      }
      case 'TIMESTAMP_LTZ': {
        const p = this.optionalPrecision(TIMESTAMP_DEFAULT_PRECISION);
        return this.build(start, () => DataTypes.TIMESTAMP_LTZ(p));
      }
      case 'INTERVAL':
        return this.parseInterval(start);
      case 'ARRAY':
      case 'MULTISET': {
        this.expectSymbol('<');
        const element = this.parseType();
        this.expectSymbol('>');
        return word === 'ARRAY' ? DataTypes.ARRAY(element) : DataTypes.MULTISET(element);
      }
      case 'MAP': {
        this.expectSymbol('<');
        const key = this.parseType();
        this.expectSymbol(',');
        const value = this.parseType();
        this.expectSymbol('>');
        return DataTypes.MAP(key, value);
      }
      case 'ROW':
        return this.parseRow(start);
      default:
        return this.fail(`Unknown type '${start.text}'.`, start);
    }
  }

  private parseWithoutTimeZone(): void {
    if (this.acceptKeyword('WITHOUT')) {
      this.expectKeyword('TIME');
      this.expectKeyword('ZONE');
    }
  }

  private parseRow(start: Token): LogicalType {
    const close = this.acceptSymbol('<') ? '>' : this.acceptSymbol('(') ? ')' : this.fail("Expected '<' or '(' after ROW.");
    const fields: RowField[] = [];
    if (!this.acceptSymbol(close)) {
      do {
        const nameTok = this.next();
        if (nameTok.kind !== 'ident' && nameTok.kind !== 'quoted') this.fail(`Expected a field name but found ${this.describe(nameTok)}.`, nameTok);
        this.acceptSymbol(':');
        const type = this.parseType();
        const descTok = this.peek();
        if (descTok.kind === 'string') {
          this.pos++;
          fields.push({ name: nameTok.text, type, description: descTok.text });
        } else {
          fields.push({ name: nameTok.text, type });
        }
      } while (this.acceptSymbol(','));
      this.expectSymbol(close);
    }
    return this.build(start, () => DataTypes.ROW(...fields));
  }

  private parseInterval(start: Token): LogicalType {
    const unitTok = this.next();
    const unit = unitTok.kind === 'ident' ? unitTok.text.toUpperCase() : '';
    switch (unit) {
      case 'YEAR': {
        const p = this.optionalPrecision(INTERVAL_DEFAULT_YEAR_PRECISION);
        if (this.acceptKeyword('TO')) {
          this.expectKeyword('MONTH');
          return this.build(start, () => DataTypes.INTERVAL_YEAR_MONTH('YEAR_TO_MONTH', p));
        }
        return this.build(start, () => DataTypes.INTERVAL_YEAR_MONTH('YEAR', p));
      }
      case 'MONTH':
        return DataTypes.INTERVAL_YEAR_MONTH('MONTH');
      case 'DAY':
      case 'HOUR':
      case 'MINUTE': {
        const d = unit === 'DAY' ? this.optionalPrecision(INTERVAL_DEFAULT_DAY_PRECISION) : INTERVAL_DEFAULT_DAY_PRECISION;
        let resolution: DayTimeResolution = unit;
        let f = INTERVAL_DEFAULT_FRACTIONAL_PRECISION;
        if (this.acceptKeyword('TO')) {
          const endTok = this.next();
          const end = endTok.kind === 'ident' ? endTok.text.toUpperCase() : '';
          const allowed = unit === 'DAY' ? ['HOUR', 'MINUTE', 'SECOND'] : unit === 'HOUR' ? ['MINUTE', 'SECOND'] : ['SECOND'];
          if (!allowed.includes(end)) this.fail(`Expected ${allowed.join(' or ')} after 'INTERVAL ${unit} TO' but found ${this.describe(endTok)}.`, endTok);
          if (end === 'SECOND') f = this.optionalPrecision(INTERVAL_DEFAULT_FRACTIONAL_PRECISION);
          resolution = `${unit}_TO_${end}` as DayTimeResolution;
        }
        return this.build(start, () => DataTypes.INTERVAL_DAY_TIME(resolution, d, f));
      }
      case 'SECOND': {
        const f = this.optionalPrecision(INTERVAL_DEFAULT_FRACTIONAL_PRECISION);
        return this.build(start, () => DataTypes.INTERVAL_DAY_TIME('SECOND', INTERVAL_DEFAULT_DAY_PRECISION, f));
      }
      default:
        return this.fail(`Expected an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND) but found ${this.describe(unitTok)}.`, unitTok);
    }
  }
}
