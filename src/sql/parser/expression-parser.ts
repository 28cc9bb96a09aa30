import type { BinaryOperator, Expression } from '../ast/expressions.js';
import { isReserved } from '../lexer/keywords.js';
import type { SourcePosition } from '../position.js';
import { SpecialFormParser } from './special-forms.js';

const COMPARISONS: Readonly<Record<string, '=' | '<>' | '<' | '<=' | '>' | '>='>> = {
  '=': '=',
  '==': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

const NILADIC = new Set(['CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'LOCALTIME', 'LOCALTIMESTAMP', 'CURRENT_USER', 'SESSION_USER', 'USER']);

/** Words after which `(` does not start a function call but a query or a grammar construct. */
const NOT_CALLABLE = new Set(['SELECT', 'VALUES', 'WITH', 'NOT', 'AND', 'OR', 'IN', 'IS', 'LIKE', 'BETWEEN', 'AS', 'FROM', 'WHERE', 'ON', 'THEN', 'WHEN', 'ELSE', 'END', 'OVER', 'FILTER', 'TABLE', 'UNNEST', 'LATERAL', 'JOIN', 'USING', 'BY', 'HAVING']);

/**
 * Operators by Calcite's precedence, lowest first: OR; AND; NOT; comparisons, IS, BETWEEN, IN, LIKE,
 * SIMILAR TO (left-associative, one level); + -; * / % ||; unary + -; postfix [i] and .field.
 */
export abstract class ExpressionParser extends SpecialFormParser {
  parseExpression(): Expression {
    let left = this.parseAnd();
    while (this.isKeyword('OR')) {
      this.next();
      left = { kind: 'binary', op: 'OR', left, right: this.parseAnd(), pos: left.pos };
    }
    return left;
  }

  private parseAnd(): Expression {
    let left = this.parseNot();
    while (this.isKeyword('AND')) {
      this.next();
      left = { kind: 'binary', op: 'AND', left, right: this.parseNot(), pos: left.pos };
    }
    return left;
  }

  private parseNot(): Expression {
    if (this.isKeyword('NOT')) {
      const pos = this.next().pos;
      return { kind: 'unary', op: 'NOT', operand: this.parseNot(), pos };
    }
    return this.parsePredicate();
  }

  private parsePredicate(): Expression {
    let left = this.parseAdditive();
    for (;;) {
      const pos = left.pos;
      const t = this.peek();
      this.record('<COMPARISON>');
      const cmp = t.type === 'symbol' ? COMPARISONS[t.value] : undefined;
      if (cmp !== undefined) {
        this.next();
        const q = (['SOME', 'ANY', 'ALL'] as const).find((k) => this.isKeywordAt(0, k) && this.isSymbolAt(1, '('));
        if (q !== undefined && this.startsQuery(2)) {
          this.i += 2;
          const query = this.parseQuery();
          this.expectSymbol(')');
          left = { kind: 'quantified-comparison', op: cmp, quantifier: q, left, query, pos };
        } else {
          left = { kind: 'binary', op: cmp, left, right: this.parseAdditive(), pos };
        }
        continue;
      }
      if (this.acceptKeywords('IS')) {
        const negated = this.acceptKeywords('NOT');
        if (this.acceptKeywords('DISTINCT', 'FROM')) {
          left = { kind: 'is-distinct-from', negated, left, right: this.parseAdditive(), pos };
          continue;
        }
        if (this.acceptKeywords('JSON')) {
          let jsonType: 'VALUE' | 'SCALAR' | 'ARRAY' | 'OBJECT' | null = null;
          for (const jt of ['VALUE', 'SCALAR', 'ARRAY', 'OBJECT'] as const) {
            if (this.acceptKeywords(jt)) {
              jsonType = jt;
              break;
            }
          }
          left = { kind: 'is-json', expr: left, negated, jsonType, pos };
          continue;
        }
        let test: 'NULL' | 'TRUE' | 'FALSE' | 'UNKNOWN' | null = null;
        for (const tt of ['NULL', 'TRUE', 'FALSE', 'UNKNOWN'] as const) {
          if (this.acceptKeywords(tt)) {
            test = tt;
            break;
          }
        }
        if (test === null) throw this.unexpected();
        left = { kind: 'is', expr: left, negated, test, pos };
        continue;
      }
      const negated = this.isKeyword('NOT') && ['IN', 'LIKE', 'ILIKE', 'BETWEEN', 'SIMILAR'].some((k) => this.isKeywordAt(1, k));
      if (negated) this.next();
      if (this.acceptKeywords('BETWEEN')) {
        let symmetric = false;
        if (this.acceptKeywords('SYMMETRIC')) symmetric = true;
        else this.acceptKeywords('ASYMMETRIC');
        const low = this.parseAdditive();
        this.expectKeywords('AND');
        left = { kind: 'between', expr: left, negated, symmetric, low, high: this.parseAdditive(), pos };
        continue;
      }
      if (this.acceptKeywords('IN')) {
        this.expectSymbol('(');
        if (this.startsQuery()) {
          const query = this.parseQuery();
          this.expectSymbol(')');
          left = { kind: 'in-subquery', expr: left, negated, query, pos };
        } else {
          const list = [this.parseExpression()];
          while (this.acceptSymbol(',')) list.push(this.parseExpression());
          this.expectSymbol(')');
          left = { kind: 'in-list', expr: left, negated, list, pos };
        }
        continue;
      }
      let likeOp: 'LIKE' | 'ILIKE' | 'SIMILAR TO' | null = null;
      if (this.acceptKeywords('LIKE')) likeOp = 'LIKE';
      else if (this.acceptKeywords('ILIKE')) likeOp = 'ILIKE';
      else if (this.acceptKeywords('SIMILAR', 'TO')) likeOp = 'SIMILAR TO';
      if (likeOp !== null) {
        const pattern = this.parseAdditive();
        const escape = this.acceptKeywords('ESCAPE') ? this.parseAdditive() : null;
        left = { kind: 'like', op: likeOp, negated, expr: left, pattern, escape, pos };
        continue;
      }
      if (negated) throw this.unexpected();
      return left;
    }
  }

  /** True when the current token starts a query (SELECT, WITH, VALUES, or `(` + one of those). */
  protected startsQuery(ahead = 0): boolean {
    let k = ahead;
    while (this.isSymbolAt(k, '(')) k++;
    return this.isKeywordAt(k, 'SELECT') || this.isKeywordAt(k, 'WITH') || this.isKeywordAt(k, 'VALUES');
  }

  protected parseAdditiveOperand(): Expression {
    return this.parseAdditive();
  }

  private parseAdditive(): Expression {
    let left = this.parseMultiplicative();
    for (;;) {
      let op: BinaryOperator | null = null;
      if (this.isSymbol('+')) op = '+';
      else if (this.isSymbol('-')) op = '-';
      if (op === null) return left;
      this.next();
      left = { kind: 'binary', op, left, right: this.parseMultiplicative(), pos: left.pos };
    }
  }

  private parseMultiplicative(): Expression {
    let left = this.parseUnary();
    for (;;) {
      let op: BinaryOperator | null = null;
      for (const s of ['*', '/', '%', '||'] as const) {
        if (this.isSymbol(s)) {
          op = s;
          break;
        }
      }
      if (op === null) return left;
      this.next();
      left = { kind: 'binary', op, left, right: this.parseUnary(), pos: left.pos };
    }
  }

  private parseUnary(): Expression {
    if (this.isSymbol('-') || this.isSymbol('+')) {
      const t = this.next();
      const operand = this.parseUnary();
      // A negative number stays one exact literal, so -9223372036854775808 is a BIGINT.
      if (t.value === '-' && operand.kind === 'numeric-literal' && !operand.text.startsWith('-')) {
        return { kind: 'numeric-literal', text: `-${operand.text}`, pos: t.pos };
      }
      return { kind: 'unary', op: t.value === '-' ? '-' : '+', operand, pos: t.pos };
    }
    return this.parsePostfix();
  }

  private parsePostfix(): Expression {
    let expr = this.parsePrimary();
    for (;;) {
      if (this.isSymbol('[')) {
        this.next();
        const index = this.parseExpression();
        this.expectSymbol(']');
        expr = { kind: 'item-access', expr, index, pos: expr.pos };
      } else if (this.isSymbol('.') && expr.kind !== 'star') {
        this.next();
        expr = { kind: 'field-access', expr, field: this.parseNamePart(), pos: expr.pos };
      } else {
        return expr;
      }
    }
  }

  private parsePrimary(): Expression {
    const t = this.peek();
    const pos = t.pos;
    this.record('<EXPRESSION>');
    switch (t.type) {
      case 'number':
        this.next();
        return { kind: 'numeric-literal', text: t.value, pos };
      case 'string':
        this.next();
        return { kind: 'string-literal', value: t.value, pos };
      case 'binary-string':
        this.next();
        return { kind: 'binary-literal', hex: t.value, pos };
      case 'quoted-ident':
        return this.parseIdentifierOrCall();
      case 'symbol':
        if (t.value === '(') return this.parseParenthesized();
        if (t.value === '*') {
          this.next();
          return { kind: 'star', qualifier: [], pos };
        }
        throw this.unexpected();
      case 'word':
        return this.parseWordPrimary();
      default:
        throw this.unexpected();
    }
  }

  private parseParenthesized(): Expression {
    const pos = this.pos;
    if (this.startsQuery(1)) {
      this.next();
      const query = this.parseQuery();
      this.expectSymbol(')');
      return { kind: 'subquery', query, pos };
    }
    this.next();
    const elements = [this.parseExpression()];
    while (this.acceptSymbol(',')) elements.push(this.parseExpression());
    this.expectSymbol(')');
    return elements.length === 1 ? elements[0]! : { kind: 'row-constructor', explicit: false, elements, pos };
  }

  private parseWordPrimary(): Expression {
    const t = this.peek();
    const pos = t.pos;
    const w = t.upper;
    const callNext = this.isSymbolAt(1, '(');
    switch (w) {
      case 'TRUE':
      case 'FALSE':
        this.next();
        return { kind: 'boolean-literal', value: w === 'TRUE', pos };
      case 'NULL':
        this.next();
        return { kind: 'null-literal', pos };
      case 'DATE':
      case 'TIME':
      case 'TIMESTAMP':
      case 'TIMESTAMP_LTZ':
        if (this.peek(1).type === 'string') {
          this.next();
          return { kind: 'typed-literal', type: w, value: this.next().value, pos };
        }
        break;
      case 'INTERVAL':
        return this.parseIntervalLiteral();
      case 'CASE':
        return this.parseCase();
      case 'ARRAY':
        if (this.isSymbolAt(1, '[')) {
          this.i += 2;
          return { kind: 'array-constructor', elements: this.parseListUntil(']'), pos };
        }
        break;
      case 'MAP':
        if (this.isSymbolAt(1, '[')) {
          this.i += 2;
          return { kind: 'map-constructor', entries: this.parseListUntil(']'), pos };
        }
        break;
      case 'EXISTS':
        if (callNext) {
          this.i += 2;
          const query = this.parseQuery();
          this.expectSymbol(')');
          return { kind: 'exists', query, pos };
        }
        break;
    }
    if (callNext) {
      switch (w) {
        case 'CAST':
          return this.parseCast(false);
        case 'TRY_CAST':
          return this.parseCast(true);
        case 'EXTRACT':
          return this.parseExtract();
        case 'TRIM':
          return this.parseTrim();
        case 'POSITION':
          return this.parsePosition();
        case 'SUBSTRING':
          return this.parseSubstring();
        case 'OVERLAY':
          return this.parseOverlay();
        case 'FLOOR':
        case 'CEIL':
        case 'CEILING':
          return this.parseFloorCeil();
        case 'JSON_VALUE':
          return this.parseJsonValue();
        case 'JSON_QUERY':
          return this.parseJsonQuery();
        case 'JSON_EXISTS':
          return this.parseJsonExists();
        case 'JSON_OBJECT':
          return this.parseJsonObject(false);
        case 'JSON_OBJECTAGG':
          return this.parseJsonObject(true);
        case 'JSON_ARRAY':
          return this.parseJsonArray(false);
        case 'JSON_ARRAYAGG':
          return this.parseJsonArray(true);
        case 'ROW':
          this.i += 2;
          return { kind: 'row-constructor', explicit: true, elements: this.isSymbol(')') ? (this.next(), []) : this.parseListUntil(')'), pos };
        case 'DESCRIPTOR': {
          this.i += 2;
          const columns = [this.parseNamePart()];
          while (this.acceptSymbol(',')) columns.push(this.parseNamePart());
          this.expectSymbol(')');
          return { kind: 'descriptor', columns, pos };
        }
      }
    }
    if (NILADIC.has(w) && !callNext) {
      this.next();
      return { kind: 'niladic', name: w as 'CURRENT_DATE', pos };
    }
    if (isReserved(w)) {
      if (callNext && !NOT_CALLABLE.has(w)) {
        this.next();
        return this.parseFunctionCall([t.value], pos);
      }
      throw this.unexpected();
    }
    return this.parseIdentifierOrCall();
  }

  private parseListUntil(close: string): Expression[] {
    const list = [this.parseExpression()];
    while (this.acceptSymbol(',')) list.push(this.parseExpression());
    this.expectSymbol(close);
    return list;
  }

  private parseIntervalLiteral(): Expression {
    const pos = this.next().pos;
    let negative = false;
    if (this.acceptSymbol('-')) negative = true;
    else this.acceptSymbol('+');
    let value: string;
    if (this.peek().type === 'number') {
      // Flink accepts INTERVAL 10 MINUTE as well as the standard quoted form.
      value = this.next().value;
    } else {
      value = this.parseString();
    }
    return { kind: 'interval-literal', negative, value, qualifier: this.parseIntervalQualifier(), pos };
  }

  /** `a.b.c`, `t.*`, or `name(args)` / `cat.db.f(args)`. */
  private parseIdentifierOrCall(): Expression {
    const first = this.peek();
    const pos: SourcePosition = first.pos;
    const names = [this.parseName().value];
    while (this.isSymbol('.')) {
      if (this.isSymbolAt(1, '*')) {
        this.i += 2;
        return { kind: 'star', qualifier: names, pos };
      }
      this.next();
      names.push(this.parseNamePart());
    }
    if (this.isSymbol('(')) return this.parseFunctionCall(names, pos);
    return { kind: 'identifier', names, pos };
  }
}
