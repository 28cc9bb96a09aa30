import type {
  Expression,
  FunctionCall,
  JsonObjectEntry,
  JsonQueryBehavior,
  JsonValueBehavior,
  WhenClause,
} from '../ast/expressions.js';
import type { FrameBound, OrderItem, WindowFrame, WindowSpec } from '../ast/query.js';
import type { Token } from '../lexer/token.js';
import type { SourcePosition } from '../position.js';
import { TypeParser } from './type-parser.js';

/**
 * Function-like syntax that is not `name(a, b)`: CAST, CASE, EXTRACT, TRIM, POSITION, SUBSTRING,
 * OVERLAY, FLOOR/CEIL ... TO, the JSON functions, and the generic call with DISTINCT, FILTER and OVER.
 * Each parse method starts at the keyword and consumes through the closing parenthesis.
 */
export abstract class SpecialFormParser extends TypeParser {
  protected parseCast(tryCast: boolean): Expression {
    return this.parseParenthesizedForm((pos) => {
      const expr = this.parseExpression();
      this.expectKeywords('AS');
      return { kind: 'cast', expr, type: this.parseDataType(), tryCast, pos };
    });
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
    return this.parseParenthesizedForm((pos) => {
      const unit = this.parseTimeUnit();
      this.expectKeywords('FROM');
      return { kind: 'extract', unit, expr: this.parseExpression(), pos };
    });
  }

  protected parseTrim(): Expression {
    return this.parseParenthesizedForm((pos) => {
      const side = this.acceptOneOf(['BOTH', 'LEADING', 'TRAILING'] as const);
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
      return { kind: 'trim', side, chars, expr, pos };
    });
  }

  protected parsePosition(): Expression {
    return this.parseParenthesizedForm((pos) => {
      const needle = this.parseAdditiveOperand();
      this.expectKeywords('IN');
      const haystack = this.parseExpression();
      const from = this.acceptKeywords('FROM') ? this.parseExpression() : null;
      return { kind: 'position', needle, haystack, from, pos };
    });
  }

  /** An operand that stops before IN (POSITION(a IN b) must not read `a IN b` as a predicate). */
  protected abstract parseAdditiveOperand(): Expression;

  /** SUBSTRING(s FROM a [FOR b]) or SUBSTRING(s, a [, b]) (a plain call). */
  protected parseSubstring(): Expression {
    const nameTok = this.next();
    this.expectSymbol('(');
    const expr = this.parseExpression();
    if (!this.acceptKeywords('FROM')) return this.finishPlainCall(nameTok, expr);
    const from = this.parseExpression();
    const length = this.acceptKeywords('FOR') ? this.parseExpression() : null;
    this.expectSymbol(')');
    return { kind: 'substring', expr, from, length, pos: nameTok.pos };
  }

  protected parseOverlay(): Expression {
    return this.parseParenthesizedForm((pos) => {
      const expr = this.parseExpression();
      this.expectKeywords('PLACING');
      const placing = this.parseExpression();
      this.expectKeywords('FROM');
      const from = this.parseExpression();
      const length = this.acceptKeywords('FOR') ? this.parseExpression() : null;
      return { kind: 'overlay', expr, placing, from, length, pos };
    });
  }

  /** FLOOR(x TO unit) / CEIL(x TO unit), else an ordinary FLOOR(x) / CEIL(x) call. */
  protected parseFloorCeil(): Expression {
    const nameTok = this.next();
    this.expectSymbol('(');
    const expr = this.parseExpression();
    if (!this.acceptKeywords('TO')) return this.finishPlainCall(nameTok, expr);
    const unit = this.parseTimeUnit();
    this.expectSymbol(')');
    const fn = nameTok.upper === 'FLOOR' ? 'FLOOR' : 'CEIL';
    return { kind: 'floor-ceil', fn, expr, unit, pos: nameTok.pos };
  }

  /**
   * SUBSTRING and FLOOR/CEIL without their keyword form are plain calls: `NAME ( first` has been
   * read; parses the remaining arguments, the `)` and what may follow a call.
   */
  private finishPlainCall(nameTok: Token, first: Expression): FunctionCall {
    const args = [first];
    while (this.acceptSymbol(',')) args.push(this.parseExpression());
    this.expectSymbol(')');
    return this.finishCall([nameTok.value], null, args, nameTok.pos);
  }

  private parseJsonValueBehavior(): JsonValueBehavior | null {
    if (this.acceptKeywords('NULL')) return { kind: 'null' };
    if (this.acceptKeywords('ERROR')) return { kind: 'error' };
    if (this.acceptKeywords('DEFAULT')) return { kind: 'default', expr: this.parseExpression() };
    return null;
  }

  protected parseJsonValue(): Expression {
    return this.parseParenthesizedForm((pos) => {
      const { expr, path } = this.parseJsonInputAndPath();
      const returning = this.acceptKeywords('RETURNING') ? this.parseDataType() : null;
      const { onEmpty, onError } = this.parseJsonOnEmptyOnError(() => this.parseJsonValueBehavior());
      return { kind: 'json-value', expr, path, returning, onEmpty, onError, pos };
    });
  }

  private parseJsonQueryBehavior(): JsonQueryBehavior | null {
    if (this.acceptKeywords('NULL')) return 'NULL';
    if (this.acceptKeywords('ERROR')) return 'ERROR';
    if (this.acceptKeywords('EMPTY', 'ARRAY')) return 'EMPTY ARRAY';
    if (this.acceptKeywords('EMPTY', 'OBJECT')) return 'EMPTY OBJECT';
    return null;
  }

  protected parseJsonQuery(): Expression {
    return this.parseParenthesizedForm((pos) => {
      const { expr, path } = this.parseJsonInputAndPath();
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
      const { onEmpty, onError } = this.parseJsonOnEmptyOnError(() => this.parseJsonQueryBehavior());
      return { kind: 'json-query', expr, path, returning, wrapper, onEmpty, onError, pos };
    });
  }

  protected parseJsonExists(): Expression {
    return this.parseParenthesizedForm((pos) => {
      const { expr, path } = this.parseJsonInputAndPath();
      const onError = this.acceptOneOf(['TRUE', 'FALSE', 'UNKNOWN', 'ERROR'] as const, 'ON', 'ERROR');
      return { kind: 'json-exists', expr, path, onError, pos };
    });
  }

  /** `json, path`: the first two arguments of JSON_VALUE, JSON_QUERY and JSON_EXISTS. */
  private parseJsonInputAndPath(): { expr: Expression; path: Expression } {
    const expr = this.parseExpression();
    this.expectSymbol(',');
    return { expr, path: this.parseExpression() };
  }

  /**
   * `<behavior> ON EMPTY` and `<behavior> ON ERROR` in any order (a repeated one wins), shared by
   * JSON_VALUE and JSON_QUERY, which differ only in which behaviors they allow.
   */
  private parseJsonOnEmptyOnError<B>(parseBehavior: () => B | null): { onEmpty: B | null; onError: B | null } {
    let onEmpty: B | null = null;
    let onError: B | null = null;
    for (;;) {
      const b = parseBehavior();
      if (b === null) break;
      this.expectKeywords('ON');
      if (this.acceptKeywords('EMPTY')) onEmpty = b;
      else if (this.acceptKeywords('ERROR')) onError = b;
      else throw this.unexpected();
    }
    return { onEmpty, onError };
  }

  private parseJsonOnNull(): 'NULL' | 'ABSENT' | null {
    return this.acceptOneOf(['NULL', 'ABSENT'] as const, 'ON', 'NULL');
  }

  protected parseJsonObject(aggregate: boolean): Expression {
    return this.parseParenthesizedForm((pos) => {
      const { items: entries, onNull } = this.parseJsonConstructorArgs((): JsonObjectEntry => {
        this.acceptKeywords('KEY');
        const key = this.parseExpression();
        if (!this.acceptKeywords('VALUE')) this.expectSymbol(':');
        return { key, value: this.parseExpression() };
      });
      return { kind: 'json-object', aggregate, entries, onNull, pos };
    });
  }

  protected parseJsonArray(aggregate: boolean): Expression {
    return this.parseParenthesizedForm((pos) => {
      const { items: elements, onNull } = this.parseJsonConstructorArgs(() => this.parseExpression());
      return { kind: 'json-array', aggregate, elements, onNull, pos };
    });
  }

  /**
   * The arguments of JSON_OBJECT and JSON_ARRAY (and their AGG forms): `[item, ...] [NULL|ABSENT ON NULL]`,
   * where the ON NULL clause may also stand alone.
   */
  private parseJsonConstructorArgs<T>(parseItem: () => T): { items: T[]; onNull: 'NULL' | 'ABSENT' | null } {
    let onNull = this.parseJsonOnNull();
    let items: T[] = [];
    if (onNull === null && !this.isSymbol(')')) {
      items = this.parseCommaSeparated(parseItem);
      onNull = this.parseJsonOnNull();
    }
    return { items, onNull };
  }

  /**
   * The shape every keyword form in this file shares: the keyword, `(`, the form's own arguments
   * (`parseArgs`, given the keyword's position for the node) and `)`.
   */
  private parseParenthesizedForm<T>(parseArgs: (pos: SourcePosition) => T): T {
    const pos = this.next().pos;
    this.expectSymbol('(');
    const node = parseArgs(pos);
    this.expectSymbol(')');
    return node;
  }

  /**
   * The first of `choices` that stands here followed by `suffix` (consuming both), else null
   * (consuming nothing); tried in order, so each is recorded as expected.
   */
  private acceptOneOf<K extends string>(choices: readonly K[], ...suffix: string[]): K | null {
    for (const choice of choices) {
      if (this.acceptKeywords(choice, ...suffix)) return choice;
    }
    return null;
  }

  /** `item [, item ...]`: at least one. */
  private parseCommaSeparated<T>(parseItem: () => T): T[] {
    const items: T[] = [];
    do items.push(parseItem());
    while (this.acceptSymbol(','));
    return items;
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

  /** True when the next argument is a plain expression (parsed without parseArgument's frame, for deep nesting). */
  private plainArgumentAhead(timeUnitFirst: boolean): boolean {
    if (timeUnitFirst) return false;
    const t = this.peek();
    if ((t.type === 'word' || t.type === 'quoted-ident') && this.isSymbolAt(1, '=>')) return false;
    return !(t.type === 'word' && t.upper === 'TABLE');
  }

  /** `k` or `(k1, k2)`: a comma after a bare key starts the next argument, as in Flink. */
  private parseKeyList(): Expression[] {
    if (!this.acceptSymbol('(')) return [this.parseExpression()];
    const keys = this.parseCommaSeparated(() => this.parseExpression());
    this.expectSymbol(')');
    return keys;
  }

  /** `name(` has been recognised; parses the arguments and what may follow the call. */
  protected parseFunctionCall(name: readonly string[], pos: SourcePosition): FunctionCall {
    this.expectSymbol('(');
    const quantifier = this.acceptOneOf(['DISTINCT', 'ALL'] as const);
    const args: Expression[] = [];
    if (this.isSymbol('*')) {
      args.push({ kind: 'star', qualifier: [], pos: this.next().pos });
    } else if (!this.isSymbol(')')) {
      const upper = name[name.length - 1]!.toUpperCase();
      const timeUnitFirst = upper === 'TIMESTAMPADD' || upper === 'TIMESTAMPDIFF';
      args.push(this.plainArgumentAhead(timeUnitFirst) ? this.parseExpression() : this.parseArgument(timeUnitFirst));
      while (this.acceptSymbol(',')) args.push(this.plainArgumentAhead(false) ? this.parseExpression() : this.parseArgument(false));
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
    const partitionBy = this.acceptKeywords('PARTITION', 'BY') ? this.parseCommaSeparated(() => this.parseExpression()) : [];
    const orderBy = this.acceptKeywords('ORDER', 'BY') ? this.parseCommaSeparated(() => this.parseOrderItem()) : [];
    let frame: WindowFrame | null = null;
    const unit = this.acceptOneOf(['ROWS', 'RANGE'] as const);
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
    const direction = this.acceptOneOf(['ASC', 'DESC'] as const);
    let nulls: 'FIRST' | 'LAST' | null = null;
    if (this.acceptKeywords('NULLS', 'FIRST')) nulls = 'FIRST';
    else if (this.acceptKeywords('NULLS', 'LAST')) nulls = 'LAST';
    return { expr, direction, nulls, pos };
  }
}
