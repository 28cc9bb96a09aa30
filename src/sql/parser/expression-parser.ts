import type { BinaryOperator, Expression } from '../ast/expressions.js';
import { isReserved } from '../lexer/keywords.js';
import type { Token } from '../lexer/token.js';
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

/** Binding strength of each operator level, lowest first (Calcite's order). */
const PREC_OR = 1;
const PREC_AND = 2;
const PREC_NOT = 3;
const PREC_PREDICATE = 4;
const PREC_ADDITIVE = 5;
const PREC_MULTIPLICATIVE = 6;

/** Expectation labels per level, tightest first, in the order an error lists them. */
const OPERATOR_LABELS: readonly (readonly [number, readonly string[]])[] = [
  [PREC_MULTIPLICATIVE, ['"*"', '"/"', '"%"', '"||"']],
  [PREC_ADDITIVE, ['"+"', '"-"']],
  [PREC_PREDICATE, ['<COMPARISON>', '"IS"', '"NOT"', '"BETWEEN"', '"IN"', '"LIKE"', '"ILIKE"', '"SIMILAR"']],
  [PREC_AND, ['"AND"']],
  [PREC_OR, ['"OR"']],
];

/**
 * Operators whose long chains may be grouped as a balanced tree: AND and OR (the binder flattens
 * them into one n-ary call anyway), `||` (associative in value and in type), and `+` / `*` (Java's
 * wrapping integer arithmetic is associative). A chain longer than BALANCE_THRESHOLD is grouped so
 * that every later stage (binder, optimizer, code generation, EXPLAIN) sees a tree of depth log n
 * instead of n; shorter chains stay left-deep exactly as written.
 */
const ASSOCIATIVE = new Set<BinaryOperator>(['OR', 'AND', '||', '+', '*']);
const BALANCE_THRESHOLD = 64;

function balanced(op: BinaryOperator, operands: readonly Expression[], from: number, to: number): Expression {
  if (to - from === 1) return operands[from]!;
  const mid = (from + to) >>> 1;
  const left = balanced(op, operands, from, mid);
  const right = balanced(op, operands, mid, to);
  return { kind: 'binary', op, left, right, pos: left.pos, ...endOf(right) };
}

/** `a op b op c ...` as a left-deep tree, or a balanced one when the chain is long. */
function chain(op: BinaryOperator, operands: readonly Expression[]): Expression {
  if (operands.length > BALANCE_THRESHOLD) return balanced(op, operands, 0, operands.length);
  let left = operands[0]!;
  for (let k = 1; k < operands.length; k++) left = { kind: 'binary', op, left, right: operands[k]!, pos: left.pos, ...endOf(operands[k]!) };
  return left;
}

/** `{ end }` of a node whose end is known, to end an enclosing node at the same place. */
function endOf(e: Expression): { end?: SourcePosition } {
  return e.end === undefined ? {} : { end: e.end };
}

/**
 * Operators by Calcite's precedence, lowest first: OR; AND; NOT; comparisons, IS, BETWEEN, IN, LIKE,
 * SIMILAR TO (left-associative, one level); + -; * / % ||; unary + -; postfix [i] and .field.
 *
 * Binary operators are parsed by precedence climbing: one loop per precedence level that is
 * actually entered, so a chain of 100,000 `+` or `OR` terms costs no stack, and a parenthesis or a
 * function argument costs a handful of frames (the nesting limit of ParserBase guards the rest).
 */
export abstract class ExpressionParser extends SpecialFormParser {
  parseExpression(): Expression {
    // No try/finally: a parse error abandons the whole parser, and deep nesting needs every frame.
    this.enterNesting();
    const e = this.parseBinary(PREC_OR);
    this.leaveNesting();
    return e;
  }

  /** The binary operator at the current token with its precedence, without consuming it. */
  private peekBinaryOperator(): { op: BinaryOperator; prec: number } | null {
    const t = this.peek();
    if (t.type === 'word') {
      if (t.upper === 'OR') return { op: 'OR', prec: PREC_OR };
      if (t.upper === 'AND') return { op: 'AND', prec: PREC_AND };
      return null;
    }
    if (t.type !== 'symbol') return null;
    switch (t.value) {
      case '+':
      case '-':
        return { op: t.value, prec: PREC_ADDITIVE };
      case '*':
      case '/':
      case '%':
      case '||':
        return { op: t.value, prec: PREC_MULTIPLICATIVE };
      default:
        return null;
    }
  }

  /** What may follow an operand at this level, for the "Was expecting one of" list of an error. */
  private recordOperators(minPrec: number, ceiling: number): void {
    for (const [prec, labels] of OPERATOR_LABELS) {
      if (prec >= minPrec && prec <= ceiling) this.record(labels);
    }
  }

  /** True when the current token starts a predicate (comparison, IS, BETWEEN, IN, LIKE, ...). */
  private atPredicate(): boolean {
    const t = this.peek();
    if (t.type === 'symbol') return COMPARISONS[t.value] !== undefined;
    if (t.type !== 'word') return false;
    switch (t.upper) {
      case 'IS':
      case 'BETWEEN':
      case 'IN':
      case 'LIKE':
      case 'ILIKE':
      case 'SIMILAR':
      case 'OVERLAPS':
        return true;
      case 'NOT':
        return ['IN', 'LIKE', 'ILIKE', 'BETWEEN', 'SIMILAR'].some((k) => this.isKeywordAt(1, k));
      default:
        return false;
    }
  }

  /**
   * Everything binding at least as tightly as `minPrec`, chains in a loop. An operand starts with
   * `NOT`s where NOT may stand (at or below its precedence); they are counted, not recursed into.
   */
  private parseBinary(minPrec: number): Expression {
    let first: Expression;
    if (minPrec <= PREC_NOT && this.isKeyword('NOT')) {
      const nots: SourcePosition[] = [];
      while (this.isKeyword('NOT')) nots.push(this.next().pos);
      this.enterNesting(nots.length);
      first = this.parseBinary(PREC_PREDICATE);
      for (let k = nots.length - 1; k >= 0; k--) first = { kind: 'unary', op: 'NOT', operand: first, pos: nots[k]!, ...endOf(first) };
      this.leaveNesting(nots.length);
    } else {
      first = this.parseUnary();
    }
    let operands: Expression[] = [first];
    let chainOp: BinaryOperator | null = null;
    // The loosest operator applied so far: a tighter one may not follow it (`a IS NULL + 1`).
    let ceiling = Number.POSITIVE_INFINITY;
    const fold = (): Expression => (chainOp === null ? operands[0]! : chain(chainOp, operands));
    for (;;) {
      this.recordOperators(minPrec, ceiling);
      if (PREC_PREDICATE >= minPrec && PREC_PREDICATE <= ceiling && this.atPredicate()) {
        operands = [this.ended(this.parsePredicateTail(fold()))];
        chainOp = null;
        ceiling = PREC_PREDICATE;
        continue;
      }
      const found = this.peekBinaryOperator();
      if (found === null || found.prec < minPrec || found.prec > ceiling) return fold();
      ceiling = found.prec;
      this.next();
      const right = this.parseBinary(found.prec + 1);
      if (found.op === chainOp) {
        operands.push(right);
      } else if (ASSOCIATIVE.has(found.op)) {
        operands = [fold(), right];
        chainOp = found.op;
      } else {
        const left = fold();
        operands = [{ kind: 'binary', op: found.op, left, right, pos: left.pos, ...endOf(right) }];
        chainOp = null;
      }
    }
  }

  private parsePredicateTail(left: Expression): Expression {
    const pos = left.pos;
    const t = this.peek();
    const cmp = t.type === 'symbol' ? COMPARISONS[t.value] : undefined;
    if (cmp !== undefined) {
      this.next();
      const q = (['SOME', 'ANY', 'ALL'] as const).find((k) => this.isKeywordAt(0, k) && this.isSymbolAt(1, '('));
      if (q !== undefined && this.startsQuery(2)) {
        this.i += 2;
        const query = this.parseQueryInExpression();
        this.expectSymbol(')');
        return { kind: 'quantified-comparison', op: cmp, quantifier: q, left, query, pos };
      }
      return { kind: 'binary', op: cmp, left, right: this.parseBinary(PREC_ADDITIVE), pos };
    }
    if (this.acceptKeywords('OVERLAPS')) {
      // `(start, end) OVERLAPS (start, end | interval)`: bound as the internal call $OVERLAPS(s1, e1, s2, e2), whose
      // second members may be intervals (known only from their types).
      const right = this.parseBinary(PREC_ADDITIVE);
      const period = (x: Expression): readonly Expression[] => {
        if (x.kind === 'row-constructor' && x.elements.length === 2) return x.elements;
        throw this.errorAt(x.pos, 'OVERLAPS compares two periods, each written (start, end) or (start, interval)');
      };
      const args = [...period(left), ...period(right)];
      return { kind: 'function-call', name: ['$OVERLAPS'], quantifier: null, args, filter: null, nullTreatment: null, over: null, pos };
    }
    if (this.acceptKeywords('IS')) {
      const negated = this.acceptKeywords('NOT');
      if (this.acceptKeywords('DISTINCT', 'FROM')) {
        return { kind: 'is-distinct-from', negated, left, right: this.parseBinary(PREC_ADDITIVE), pos };
      }
      if (this.acceptKeywords('JSON')) {
        let jsonType: 'VALUE' | 'SCALAR' | 'ARRAY' | 'OBJECT' | null = null;
        for (const jt of ['VALUE', 'SCALAR', 'ARRAY', 'OBJECT'] as const) {
          if (this.acceptKeywords(jt)) {
            jsonType = jt;
            break;
          }
        }
        return { kind: 'is-json', expr: left, negated, jsonType, pos };
      }
      let test: 'NULL' | 'TRUE' | 'FALSE' | 'UNKNOWN' | null = null;
      for (const tt of ['NULL', 'TRUE', 'FALSE', 'UNKNOWN'] as const) {
        if (this.acceptKeywords(tt)) {
          test = tt;
          break;
        }
      }
      if (test === null) throw this.unexpected();
      return { kind: 'is', expr: left, negated, test, pos };
    }
    const negated = this.isKeyword('NOT') && ['IN', 'LIKE', 'ILIKE', 'BETWEEN', 'SIMILAR'].some((k) => this.isKeywordAt(1, k));
    if (negated) this.next();
    if (this.acceptKeywords('BETWEEN')) {
      let symmetric = false;
      if (this.acceptKeywords('SYMMETRIC')) symmetric = true;
      else this.acceptKeywords('ASYMMETRIC');
      const low = this.parseBinary(PREC_ADDITIVE);
      this.expectKeywords('AND');
      return { kind: 'between', expr: left, negated, symmetric, low, high: this.parseBinary(PREC_ADDITIVE), pos };
    }
    if (this.acceptKeywords('IN')) {
      this.expectSymbol('(');
      if (this.startsQuery()) {
        const query = this.parseQueryInExpression();
        this.expectSymbol(')');
        return { kind: 'in-subquery', expr: left, negated, query, pos };
      }
      const list = [this.parseExpression()];
      while (this.acceptSymbol(',')) list.push(this.parseExpression());
      this.expectSymbol(')');
      return { kind: 'in-list', expr: left, negated, list, pos };
    }
    let likeOp: 'LIKE' | 'ILIKE' | 'SIMILAR TO' | null = null;
    if (this.acceptKeywords('LIKE')) likeOp = 'LIKE';
    else if (this.acceptKeywords('ILIKE')) likeOp = 'ILIKE';
    else if (this.acceptKeywords('SIMILAR', 'TO')) likeOp = 'SIMILAR TO';
    if (likeOp !== null) {
      const pattern = this.parseBinary(PREC_ADDITIVE);
      const escape = this.acceptKeywords('ESCAPE') ? this.parseBinary(PREC_ADDITIVE) : null;
      return { kind: 'like', op: likeOp, negated, expr: left, pattern, escape, pos };
    }
    throw this.unexpected();
  }

  /** True when the current token starts a query (SELECT, WITH, VALUES, or `(` + one of those). */
  protected startsQuery(ahead = 0): boolean {
    let k = ahead;
    while (this.isSymbolAt(k, '(')) k++;
    return this.isKeywordAt(k, 'SELECT') || this.isKeywordAt(k, 'WITH') || this.isKeywordAt(k, 'VALUES');
  }

  protected parseAdditiveOperand(): Expression {
    return this.parseBinary(PREC_ADDITIVE);
  }

  /**
   * Signs (counted in a loop), a primary, then its postfix `[i]` and `.field` accessors. `-5` stays
   * one literal, so -9223372036854775808 is a BIGINT.
   */
  private parseUnary(): Expression {
    let signs: Token[] | null = null;
    while (this.isSymbol('-') || this.isSymbol('+')) (signs ??= []).push(this.next());
    // One sign is a plain negative number or a single unary node; further signs nest.
    if (signs !== null) this.enterNesting(signs.length - 1);
    let expr = this.ended(this.parsePrimary());
    for (;;) {
      if (this.isSymbol('[')) {
        this.next();
        const index = this.parseExpression();
        this.expectSymbol(']');
        expr = { kind: 'item-access', expr, index, pos: expr.pos, end: this.lastEnd };
      } else if (this.isSymbol('.') && expr.kind !== 'star') {
        this.next();
        expr = { kind: 'field-access', expr, field: this.parseNamePart(), pos: expr.pos, end: this.lastEnd };
      } else {
        break;
      }
    }
    if (signs === null) return expr;
    for (let k = signs.length - 1; k >= 0; k--) {
      const t = signs[k]!;
      if (t.value === '-' && expr.kind === 'numeric-literal' && !expr.text.startsWith('-')) {
        expr = { kind: 'numeric-literal', text: `-${expr.text}`, pos: t.pos, ...endOf(expr) };
      } else {
        expr = { kind: 'unary', op: t.value === '-' ? '-' : '+', operand: expr, pos: t.pos, ...endOf(expr) };
      }
    }
    this.leaveNesting(signs.length - 1);
    return expr;
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
        if (t.value === '(') {
          // Inline (no parseParenthesized frame): parentheses and subqueries nest through here.
          if (this.startsQuery(1)) {
            this.next();
            // The expression around counted this level already (parseQueryInExpression, inlined).
            this.nesting--;
            const query = this.parseQuery();
            this.nesting++;
            this.expectSymbol(')');
            return { kind: 'subquery', query, pos };
          }
          this.next();
          const elements = [this.parseExpression()];
          while (this.acceptSymbol(',')) elements.push(this.parseExpression());
          this.expectSymbol(')');
          return elements.length === 1 ? elements[0]! : { kind: 'row-constructor', explicit: false, elements, pos };
        }
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
        if (this.peek(1).type === 'string') {
          this.next();
          return { kind: 'typed-literal', type: w, value: this.next().value, pos };
        }
        if (w === 'TIMESTAMP' && ['WITH', 'LOCAL', 'TIME', 'ZONE'].every((kw, k) => this.isKeywordAt(1 + k, kw)) && this.peek(5).type === 'string') {
          this.i += 5;
          return { kind: 'typed-literal', type: 'TIMESTAMP_LTZ', value: this.next().value, pos };
        }
        break;
      case 'TIMESTAMP_LTZ':
        // Flink's parser has no TIMESTAMP_LTZ literal; accepting one would make a script Flink refuses.
        if (this.peek(1).type === 'string') {
          throw this.errorAt(
            pos,
            "Incorrect syntax near the keyword 'TIMESTAMP_LTZ': write TIMESTAMP WITH LOCAL TIME ZONE '...' for a TIMESTAMP_LTZ literal, as in Flink.",
          );
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
          const query = this.parseQueryInExpression();
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
