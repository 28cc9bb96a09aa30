import type {
  Expression,
  FunctionCall,
  JsonObjectEntry,
  JsonQueryBehavior,
  JsonValueBehavior,
  WhenClause,
} from '../ast/expressions.js';
import type { FrameBound, OrderItem, WindowFrame, WindowSpec } from '../ast/query.js';
import type { SourcePosition } from '../position.js';
import { TypeParser } from './type-parser.js';

/**
 * Function-like syntax that is not `name(a, b)`: CAST, CASE, EXTRACT, TRIM, POSITION, SUBSTRING,
 * OVERLAY, FLOOR/CEIL ... TO, the JSON functions, and the generic call with DISTINCT, FILTER and OVER.
 * Each parse method starts at the keyword and consumes through the closing parenthesis.
 */
export abstract class SpecialFormParser extends TypeParser {
  protected parseCast(tryCast: boolean): Expression {
    const pos = this.next().pos;
    this.expectSymbol('(');
    const expr = this.parseExpression();
    this.expectKeywords('AS');
    const type = this.parseDataType();
    this.expectSymbol(')');
    return { kind: 'cast', expr, type, tryCast, pos };
  }

  protected parseCase(): Expression {
    const pos = this.next().pos;
    const operand = this.isKeyword('WHEN') ? null : this.parseExpression();
    const whens: WhenClause[] = [];
    while (this.acceptKeywords('WHEN')) {
      const when = this.parseExpression();
      this.expectKeywords('THEN');
      whens.push({ when, then: this.parseExpression() });
    }
    if (whens.length === 0) {
      this.isKeyword('WHEN');
      throw this.unexpected();
    }
    const elseExpr = this.acceptKeywords('ELSE') ? this.parseExpression() : null;
    this.expectKeywords('END');
    return { kind: 'case', operand, whens, elseExpr, pos };
  }

  protected parseExtract(): Expression {
    const pos = this.next().pos;
    this.expectSymbol('(');
    const unit = this.parseTimeUnit();
    this.expectKeywords('FROM');
    const expr = this.parseExpression();
    this.expectSymbol(')');
    return { kind: 'extract', unit, expr, pos };
  }

  protected parseTrim(): Expression {
    const pos = this.next().pos;
    this.expectSymbol('(');
    let side: 'BOTH' | 'LEADING' | 'TRAILING' | null = null;
    for (const s of ['BOTH', 'LEADING', 'TRAILING'] as const) {
      if (this.acceptKeywords(s)) {
        side = s;
        break;
      }
    }
    let chars: Expression | null = null;
    let expr: Expression;
    if (side !== null && this.acceptKeywords('FROM')) {
      expr = this.parseExpression();
    } else {
      const first = this.parseExpression();
      if (this.acceptKeywords('FROM')) {
        chars = first;
        expr = this.parseExpression();
      } else {
        expr = first;
      }
    }
    this.expectSymbol(')');
    return { kind: 'trim', side, chars, expr, pos };
  }

  protected parsePosition(): Expression {
    const pos = this.next().pos;
    this.expectSymbol('(');
    const needle = this.parseAdditiveOperand();
    this.expectKeywords('IN');
    const haystack = this.parseExpression();
    const from = this.acceptKeywords('FROM') ? this.parseExpression() : null;
    this.expectSymbol(')');
    return { kind: 'position', needle, haystack, from, pos };
  }

  /** An operand that stops before IN (POSITION(a IN b) must not read `a IN b` as a predicate). */
  protected abstract parseAdditiveOperand(): Expression;

  /** SUBSTRING(s FROM a [FOR b]) or SUBSTRING(s, a [, b]) (a plain call). */
  protected parseSubstring(): Expression {
    const nameTok = this.next();
    const pos = nameTok.pos;
    this.expectSymbol('(');
    const expr = this.parseExpression();
    if (this.acceptKeywords('FROM')) {
      const from = this.parseExpression();
      const length = this.acceptKeywords('FOR') ? this.parseExpression() : null;
      this.expectSymbol(')');
      return { kind: 'substring', expr, from, length, pos };
    }
    const args = [expr];
    while (this.acceptSymbol(',')) args.push(this.parseExpression());
    this.expectSymbol(')');
    return this.finishCall([nameTok.value], null, args, pos);
  }

  protected parseOverlay(): Expression {
    const pos = this.next().pos;
    this.expectSymbol('(');
    const expr = this.parseExpression();
    this.expectKeywords('PLACING');
    const placing = this.parseExpression();
    this.expectKeywords('FROM');
    const from = this.parseExpression();
    const length = this.acceptKeywords('FOR') ? this.parseExpression() : null;
    this.expectSymbol(')');
    return { kind: 'overlay', expr, placing, from, length, pos };
  }

  /** FLOOR(x TO unit) / CEIL(x TO unit), else an ordinary FLOOR(x) / CEIL(x) call. */
  protected parseFloorCeil(): Expression {
    const nameTok = this.next();
    const pos = nameTok.pos;
    this.expectSymbol('(');
    const expr = this.parseExpression();
    if (this.acceptKeywords('TO')) {
      const unit = this.parseTimeUnit();
      this.expectSymbol(')');
      return { kind: 'floor-ceil', fn: nameTok.upper === 'FLOOR' ? 'FLOOR' : 'CEIL', expr, unit, pos };
    }
    const args = [expr];
    while (this.acceptSymbol(',')) args.push(this.parseExpression());
    this.expectSymbol(')');
    return this.finishCall([nameTok.value], null, args, pos);
  }

  private parseJsonValueBehavior(): JsonValueBehavior | null {
    if (this.acceptKeywords('NULL')) return { kind: 'null' };
    if (this.acceptKeywords('ERROR')) return { kind: 'error' };
    if (this.acceptKeywords('DEFAULT')) return { kind: 'default', expr: this.parseExpression() };
    return null;
  }

  protected parseJsonValue(): Expression {
    const pos = this.next().pos;
    this.expectSymbol('(');
    const expr = this.parseExpression();
    this.expectSymbol(',');
    const path = this.parseExpression();
    const returning = this.acceptKeywords('RETURNING') ? this.parseDataType() : null;
    let onEmpty: JsonValueBehavior | null = null;
    let onError: JsonValueBehavior | null = null;
    for (;;) {
      const b = this.parseJsonValueBehavior();
      if (b === null) break;
      this.expectKeywords('ON');
      if (this.acceptKeywords('EMPTY')) onEmpty = b;
      else if (this.acceptKeywords('ERROR')) onError = b;
      else throw this.unexpected();
    }
    this.expectSymbol(')');
    return { kind: 'json-value', expr, path, returning, onEmpty, onError, pos };
  }

  private parseJsonQueryBehavior(): JsonQueryBehavior | null {
    if (this.acceptKeywords('NULL')) return 'NULL';
    if (this.acceptKeywords('ERROR')) return 'ERROR';
    if (this.acceptKeywords('EMPTY', 'ARRAY')) return 'EMPTY ARRAY';
    if (this.acceptKeywords('EMPTY', 'OBJECT')) return 'EMPTY OBJECT';
    return null;
  }

  protected parseJsonQuery(): Expression {
    const pos = this.next().pos;
    this.expectSymbol('(');
    const expr = this.parseExpression();
    this.expectSymbol(',');
    const path = this.parseExpression();
    const returning = this.acceptKeywords('RETURNING') ? this.parseDataType() : null;
    let wrapper: 'WITHOUT ARRAY' | 'WITH CONDITIONAL ARRAY' | 'WITH UNCONDITIONAL ARRAY' | null = null;
    if (this.acceptKeywords('WITHOUT')) {
      this.acceptKeywords('ARRAY');
      this.expectKeywords('WRAPPER');
      wrapper = 'WITHOUT ARRAY';
    } else if (this.acceptKeywords('WITH')) {
      const conditional = this.acceptKeywords('CONDITIONAL');
      if (!conditional) this.acceptKeywords('UNCONDITIONAL');
      this.acceptKeywords('ARRAY');
      this.expectKeywords('WRAPPER');
      wrapper = conditional ? 'WITH CONDITIONAL ARRAY' : 'WITH UNCONDITIONAL ARRAY';
    }
    let onEmpty: JsonQueryBehavior | null = null;
    let onError: JsonQueryBehavior | null = null;
    for (;;) {
      const b = this.parseJsonQueryBehavior();
      if (b === null) break;
      this.expectKeywords('ON');
      if (this.acceptKeywords('EMPTY')) onEmpty = b;
      else if (this.acceptKeywords('ERROR')) onError = b;
      else throw this.unexpected();
    }
    this.expectSymbol(')');
    return { kind: 'json-query', expr, path, returning, wrapper, onEmpty, onError, pos };
  }

  protected parseJsonExists(): Expression {
    const pos = this.next().pos;
    this.expectSymbol('(');
    const expr = this.parseExpression();
    this.expectSymbol(',');
    const path = this.parseExpression();
    let onError: 'TRUE' | 'FALSE' | 'UNKNOWN' | 'ERROR' | null = null;
    for (const b of ['TRUE', 'FALSE', 'UNKNOWN', 'ERROR'] as const) {
      if (this.acceptKeywords(b, 'ON', 'ERROR')) {
        onError = b;
        break;
      }
    }
    this.expectSymbol(')');
    return { kind: 'json-exists', expr, path, onError, pos };
  }

  private parseJsonOnNull(): 'NULL' | 'ABSENT' | null {
    if (this.acceptKeywords('NULL', 'ON', 'NULL')) return 'NULL';
    if (this.acceptKeywords('ABSENT', 'ON', 'NULL')) return 'ABSENT';
    return null;
  }

  protected parseJsonObject(aggregate: boolean): Expression {
    const pos = this.next().pos;
    this.expectSymbol('(');
    const entries: JsonObjectEntry[] = [];
    let onNull = this.parseJsonOnNull();
    if (onNull === null && !this.isSymbol(')')) {
      do {
        this.acceptKeywords('KEY');
        const key = this.parseExpression();
        if (!this.acceptKeywords('VALUE')) this.expectSymbol(':');
        entries.push({ key, value: this.parseExpression() });
      } while (this.acceptSymbol(','));
      onNull = this.parseJsonOnNull();
    }
    this.expectSymbol(')');
    return { kind: 'json-object', aggregate, entries, onNull, pos };
  }

  protected parseJsonArray(aggregate: boolean): Expression {
    const pos = this.next().pos;
    this.expectSymbol('(');
    const elements: Expression[] = [];
    let onNull = this.parseJsonOnNull();
    if (onNull === null && !this.isSymbol(')')) {
      do elements.push(this.parseExpression());
      while (this.acceptSymbol(','));
      onNull = this.parseJsonOnNull();
    }
    this.expectSymbol(')');
    return { kind: 'json-array', aggregate, elements, onNull, pos };
  }

  /** One argument: `name => value`, `TABLE t [PARTITION BY ..] [ORDER BY ..]`, or an expression. */
  private parseArgument(timeUnitFirst: boolean): Expression {
    const pos = this.pos;
    if (timeUnitFirst && this.isTimeUnit() && this.isSymbolAt(1, ',')) {
      return { kind: 'time-unit', unit: this.parseTimeUnit(), pos };
    }
    const t = this.peek();
    if ((t.type === 'word' || t.type === 'quoted-ident') && this.isSymbolAt(1, '=>')) {
      this.i += 2;
      return { kind: 'named-argument', name: t.value, value: this.parseArgument(false), pos };
    }
    if (this.isKeyword('TABLE') && !this.isSymbolAt(1, '(')) {
      this.next();
      const table = this.parseObjectName().parts;
      const partitionBy: Expression[] = [];
      const orderBy: Expression[] = [];
      if (this.acceptKeywords('PARTITION', 'BY')) partitionBy.push(...this.parseKeyList());
      if (this.acceptKeywords('ORDER', 'BY')) orderBy.push(...this.parseKeyList());
      return { kind: 'table-arg', table, partitionBy, orderBy, pos };
    }
    return this.parseExpression();
  }

  /** `k` or `(k1, k2)`: a comma after a bare key starts the next argument, as in Flink. */
  private parseKeyList(): Expression[] {
    if (!this.acceptSymbol('(')) return [this.parseExpression()];
    const keys = [this.parseExpression()];
    while (this.acceptSymbol(',')) keys.push(this.parseExpression());
    this.expectSymbol(')');
    return keys;
  }

  /** `name(` has been recognised; parses the arguments and what may follow the call. */
  protected parseFunctionCall(name: readonly string[], pos: SourcePosition): FunctionCall {
    this.expectSymbol('(');
    let quantifier: 'DISTINCT' | 'ALL' | null = null;
    if (this.acceptKeywords('DISTINCT')) quantifier = 'DISTINCT';
    else if (this.acceptKeywords('ALL')) quantifier = 'ALL';
    const args: Expression[] = [];
    if (this.isSymbol('*')) {
      args.push({ kind: 'star', qualifier: [], pos: this.next().pos });
    } else if (!this.isSymbol(')')) {
      const upper = name[name.length - 1]!.toUpperCase();
      const timeUnitFirst = upper === 'TIMESTAMPADD' || upper === 'TIMESTAMPDIFF';
      args.push(this.parseArgument(timeUnitFirst));
      while (this.acceptSymbol(',')) args.push(this.parseArgument(false));
    }
    this.expectSymbol(')');
    return this.finishCall(name, quantifier, args, pos);
  }

  /** FILTER (WHERE ..), IGNORE|RESPECT NULLS and OVER after a call's closing parenthesis. */
  protected finishCall(
    name: readonly string[],
    quantifier: 'DISTINCT' | 'ALL' | null,
    args: readonly Expression[],
    pos: SourcePosition,
  ): FunctionCall {
    let filter: Expression | null = null;
    if (this.isKeyword('FILTER') && this.isSymbolAt(1, '(')) {
      this.i += 2;
      this.expectKeywords('WHERE');
      filter = this.parseExpression();
      this.expectSymbol(')');
    }
    let nullTreatment: 'IGNORE NULLS' | 'RESPECT NULLS' | null = null;
    if (this.acceptKeywords('IGNORE', 'NULLS')) nullTreatment = 'IGNORE NULLS';
    else if (this.acceptKeywords('RESPECT', 'NULLS')) nullTreatment = 'RESPECT NULLS';
    let over: FunctionCall['over'] = null;
    if (this.acceptKeywords('OVER')) {
      if (this.isSymbol('(')) over = this.parseWindowSpec();
      else {
        const n = this.parseName();
        over = { kind: 'window-ref', name: n.value, pos: n.pos };
      }
    }
    return { kind: 'function-call', name, quantifier, args, filter, nullTreatment, over, pos };
  }

  /** `( [base] [PARTITION BY ..] [ORDER BY ..] [ROWS|RANGE ..] )` */
  protected parseWindowSpec(): WindowSpec {
    const pos = this.expectSymbol('(').pos;
    let baseWindow: string | null = null;
    if (this.isNameStart() && !this.isKeyword('PARTITION') && !this.isKeyword('ORDER')) baseWindow = this.parseName().value;
    const partitionBy: Expression[] = [];
    if (this.acceptKeywords('PARTITION', 'BY')) {
      do partitionBy.push(this.parseExpression());
      while (this.acceptSymbol(','));
    }
    const orderBy: OrderItem[] = [];
    if (this.acceptKeywords('ORDER', 'BY')) {
      do orderBy.push(this.parseOrderItem());
      while (this.acceptSymbol(','));
    }
    let frame: WindowFrame | null = null;
    const unit = this.acceptKeywords('ROWS') ? 'ROWS' : this.acceptKeywords('RANGE') ? 'RANGE' : null;
    if (unit !== null) {
      if (this.acceptKeywords('BETWEEN')) {
        const start = this.parseFrameBound();
        this.expectKeywords('AND');
        frame = { unit, start, end: this.parseFrameBound() };
      } else {
        frame = { unit, start: this.parseFrameBound(), end: null };
      }
    }
    this.expectSymbol(')');
    return { kind: 'window-spec', baseWindow, partitionBy, orderBy, frame, pos };
  }

  private parseFrameBound(): FrameBound {
    if (this.acceptKeywords('UNBOUNDED', 'PRECEDING')) return { kind: 'unbounded-preceding' };
    if (this.acceptKeywords('UNBOUNDED', 'FOLLOWING')) return { kind: 'unbounded-following' };
    if (this.acceptKeywords('CURRENT', 'ROW')) return { kind: 'current-row' };
    const offset = this.parseAdditiveOperand();
    if (this.acceptKeywords('PRECEDING')) return { kind: 'preceding', offset };
    this.expectKeywords('FOLLOWING');
    return { kind: 'following', offset };
  }

  protected parseOrderItem(): OrderItem {
    const pos = this.pos;
    const expr = this.parseExpression();
    const direction = this.acceptKeywords('ASC') ? 'ASC' : this.acceptKeywords('DESC') ? 'DESC' : null;
    let nulls: 'FIRST' | 'LAST' | null = null;
    if (this.acceptKeywords('NULLS', 'FIRST')) nulls = 'FIRST';
    else if (this.acceptKeywords('NULLS', 'LAST')) nulls = 'LAST';
    return { expr, direction, nulls, pos };
  }
}
