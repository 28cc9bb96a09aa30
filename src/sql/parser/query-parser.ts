import type { Expression, FunctionCall } from '../ast/expressions.js';
import type { Name } from '../ast/names.js';
import type {
  GroupingElement,
  JoinCondition,
  JoinRef,
  NamedWindow,
  OrderItem,
  Query,
  SelectItem,
  SelectQuery,
  TableRef,
  WithItem,
} from '../ast/query.js';
import type { SourcePosition } from '../position.js';
import { MatchRecognizeParser } from './match-recognize-parser.js';

/** WITH, SELECT, VALUES, set operations, FROM with joins and table functions, ORDER BY / LIMIT. */
export abstract class QueryParser extends MatchRecognizeParser {
  parseQuery(): Query {
    this.enterNesting();
    const pos = this.pos;
    // Small frame on purpose: nested subqueries recurse through here; the rest lives in helpers.
    const q = this.isKeyword('WITH') ? this.parseWith() : this.parseQueryTail(this.parseSetOperations(), pos);
    this.leaveNesting();
    return q;
  }

  private parseWith(): Query {
    const pos = this.next().pos;
    const items: WithItem[] = [];
    do {
      const name = this.parseName();
      const columns = this.isSymbol('(') ? this.parseParenNameList() : [];
      this.expectKeywords('AS');
      this.expectSymbol('(');
      const query = this.parseQuery();
      this.expectSymbol(')');
      items.push({ name, columns, query });
    } while (this.acceptSymbol(','));
    return { kind: 'with', items, body: this.parseQuery(), pos };
  }

  /** ORDER BY, LIMIT, OFFSET and FETCH after a query body. */
  private parseQueryTail(body: Query, pos: SourcePosition): Query {
    const orderBy: OrderItem[] = [];
    if (this.acceptKeywords('ORDER', 'BY')) {
      do orderBy.push(this.parseOrderItem());
      while (this.acceptSymbol(','));
    }
    let offset: Expression | null = null;
    let fetch: Expression | null = null;
    for (;;) {
      if (fetch === null && this.acceptKeywords('LIMIT')) {
        if (this.acceptKeywords('ALL')) continue;
        fetch = this.parseExpression();
        if (this.acceptSymbol(',')) {
          // MySQL style LIMIT offset, count
          offset = fetch;
          fetch = this.parseExpression();
        }
      } else if (offset === null && this.acceptKeywords('OFFSET')) {
        offset = this.parseExpression();
        if (!this.acceptKeywords('ROWS')) this.acceptKeywords('ROW');
      } else if (fetch === null && this.acceptKeywords('FETCH')) {
        if (!this.acceptKeywords('FIRST')) this.expectKeywords('NEXT');
        fetch = this.isKeyword('ROW') || this.isKeyword('ROWS') ? { kind: 'numeric-literal', text: '1', pos: this.pos } : this.parseExpression();
        if (!this.acceptKeywords('ROWS')) this.expectKeywords('ROW');
        this.expectKeywords('ONLY');
      } else {
        break;
      }
    }
    if (orderBy.length === 0 && offset === null && fetch === null) return body;
    return { kind: 'order-by', query: body, orderBy, offset, fetch, pos };
  }

  /**
   * Set operations in one loop: INTERSECT binds tighter than UNION and EXCEPT, all left-associative.
   * One function instead of one per level keeps deeply nested subqueries within the stack.
   */
  private parseSetOperations(): Query {
    let result: Query | null = null;
    let pending: { op: 'UNION' | 'EXCEPT'; all: boolean } | null = null;
    let current = this.isKeyword('SELECT') ? this.parseSelect() : this.parseQueryPrimary();
    for (;;) {
      if (this.acceptKeywords('INTERSECT')) {
        const all = this.parseSetQuantifier();
        current = { kind: 'set-operation', op: 'INTERSECT', all, left: current, right: this.parseQueryPrimary(), pos: current.pos };
        continue;
      }
      result = result === null || pending === null ? current : { kind: 'set-operation', op: pending.op, all: pending.all, left: result, right: current, pos: result.pos };
      let op: 'UNION' | 'EXCEPT' | null = null;
      if (this.acceptKeywords('UNION')) op = 'UNION';
      else if (this.acceptKeywords('EXCEPT') || this.acceptKeywords('MINUS')) op = 'EXCEPT';
      if (op === null) return result;
      pending = { op, all: this.parseSetQuantifier() };
      current = this.parseQueryPrimary();
    }
  }

  private parseSetQuantifier(): boolean {
    if (this.acceptKeywords('ALL')) return true;
    this.acceptKeywords('DISTINCT');
    return false;
  }

  private parseQueryPrimary(): Query {
    const pos = this.pos;
    if (this.isKeyword('SELECT')) return this.parseSelect();
    if (this.acceptKeywords('VALUES')) {
      const rows: Expression[][] = [];
      do {
        if (this.isSymbol('(')) {
          this.next();
          const row = [this.parseExpression()];
          while (this.acceptSymbol(',')) row.push(this.parseExpression());
          this.expectSymbol(')');
          rows.push(row);
        } else {
          rows.push([this.parseExpression()]);
        }
      } while (this.acceptSymbol(','));
      return { kind: 'values', rows, pos };
    }
    if (this.isSymbol('(')) {
      this.next();
      const q = this.parseQuery();
      this.expectSymbol(')');
      return q;
    }
    this.isKeyword('WITH');
    this.isKeyword('VALUES');
    throw this.unexpected();
  }

  private parseSelect(): SelectQuery {
    const pos = this.next().pos;
    const hints = this.parseHints();
    let quantifier: 'DISTINCT' | 'ALL' | null = null;
    if (this.acceptKeywords('DISTINCT')) quantifier = 'DISTINCT';
    else if (this.acceptKeywords('ALL')) quantifier = 'ALL';
    const items: SelectItem[] = [];
    do {
      // Inline rather than a parseSelectItem frame: scalar subqueries nest through here.
      const itemPos = this.pos;
      const expr = this.parseExpression();
      items.push(expr.kind === 'star' ? { expr, alias: null, pos: itemPos } : { expr, alias: this.parseAlias(), pos: itemPos });
    } while (this.acceptSymbol(','));
    return this.parseSelectClauses(pos, quantifier, hints, items);
  }

  /** FROM, WHERE, GROUP BY, HAVING and WINDOW of a SELECT (apart, so parseSelect's frame stays small). */
  private parseSelectClauses(pos: SourcePosition, quantifier: SelectQuery['quantifier'], hints: SelectQuery['hints'], items: SelectItem[]): SelectQuery {
    const from = this.acceptKeywords('FROM') ? this.parseFrom() : null;
    const where = this.acceptKeywords('WHERE') ? this.parseExpression() : null;
    const groupBy: GroupingElement[] = [];
    if (this.acceptKeywords('GROUP', 'BY')) {
      do groupBy.push(this.parseGroupingElement());
      while (this.acceptSymbol(','));
    }
    const having = this.acceptKeywords('HAVING') ? this.parseExpression() : null;
    const windows: NamedWindow[] = [];
    if (this.acceptKeywords('WINDOW')) {
      do {
        const name = this.parseName();
        this.expectKeywords('AS');
        windows.push({ name, spec: this.parseWindowSpec() });
      } while (this.acceptSymbol(','));
    }
    return { kind: 'select', quantifier, hints, items, from, where, groupBy, having, windows, pos };
  }

  /** `[AS] name`; without AS only an unreserved word or a backquoted name. */
  private parseAlias(): Name | null {
    if (this.acceptKeywords('AS')) return this.parseName();
    return this.isNameStart() ? this.parseName() : null;
  }

  private parseGroupingElement(): GroupingElement {
    const pos = this.pos;
    if (this.acceptKeywords('GROUPING', 'SETS')) {
      this.expectSymbol('(');
      const elements: GroupingElement[] = [];
      do elements.push(this.parseGroupingElement());
      while (this.acceptSymbol(','));
      this.expectSymbol(')');
      return { kind: 'grouping-sets', elements, pos };
    }
    for (const k of ['ROLLUP', 'CUBE'] as const) {
      if (this.isKeyword(k) && this.isSymbolAt(1, '(')) {
        this.i += 2;
        const elements = [this.parseExpression()];
        while (this.acceptSymbol(',')) elements.push(this.parseExpression());
        this.expectSymbol(')');
        return { kind: k === 'ROLLUP' ? 'rollup' : 'cube', elements, pos };
      }
    }
    if (this.isSymbol('(') && this.isSymbolAt(1, ')')) {
      this.i += 2;
      return { kind: 'group-empty', pos };
    }
    return { kind: 'group-expr', expr: this.parseExpression(), pos };
  }

  /**
   * FROM list: comma joins of table references with their JOINs, in one loop (a comma binds looser
   * than JOIN: `a, b JOIN c` is `a, (b JOIN c)`), so nested derived tables cost few frames.
   */
  protected parseFrom(): TableRef {
    let result: TableRef | null = null;
    let current = this.parseTablePrimary();
    for (;;) {
      const join = this.parseJoinKeywords();
      if (join !== null) {
        const right = this.parseTablePrimary();
        let condition: JoinCondition | null = null;
        if (this.acceptKeywords('ON')) condition = { kind: 'on', expr: this.parseExpression() };
        else if (this.acceptKeywords('USING')) condition = { kind: 'using', columns: this.parseParenNameList() };
        current = { kind: 'join', joinType: join.joinType, natural: join.natural, left: current, right, condition, pos: current.pos };
        continue;
      }
      result = result === null ? current : { kind: 'join', joinType: 'COMMA', natural: false, left: result, right: current, condition: null, pos: result.pos };
      if (!this.acceptSymbol(',')) return result;
      current = this.parseTablePrimary();
    }
  }

  /** `[NATURAL] [INNER|CROSS|LEFT [OUTER]|...] JOIN`, or null when no join follows. */
  private parseJoinKeywords(): { joinType: JoinRef['joinType']; natural: boolean } | null {
    const natural = this.acceptKeywords('NATURAL');
    let joinType: JoinRef['joinType'] | null = null;
    if (this.acceptKeywords('JOIN') || this.acceptKeywords('INNER', 'JOIN')) joinType = 'INNER';
    else if (this.acceptKeywords('CROSS', 'JOIN')) joinType = 'CROSS';
    else {
      for (const k of ['LEFT', 'RIGHT', 'FULL'] as const) {
        if (this.acceptKeywords(k, 'JOIN') || this.acceptKeywords(k, 'OUTER', 'JOIN')) {
          joinType = k;
          break;
        }
      }
    }
    if (joinType === null) {
      if (natural) throw this.unexpected();
      return null;
    }
    return { joinType, natural };
  }

  private parseTablePrimary(): TableRef {
    const pos = this.pos;
    if (this.isSymbol('(')) {
      if (this.startsQuery(1)) {
        this.next();
        const query = this.parseQuery();
        this.expectSymbol(')');
        if (this.isKeyword('MATCH_RECOGNIZE')) {
          return { ...this.parseMatchRecognize({ kind: 'derived-table', lateral: false, query, alias: null, columnAliases: [], pos }), ...this.parseTableAlias(pos) };
        }
        return { kind: 'derived-table', lateral: false, query, ...this.parseTableAlias(pos) };
      }
      this.next();
      const inner = this.parseFrom();
      this.expectSymbol(')');
      return inner;
    }
    if (this.acceptKeywords('LATERAL')) {
      if (this.isKeyword('TABLE')) return this.parseTableFunction(true, pos);
      this.expectSymbol('(');
      const query = this.parseQuery();
      this.expectSymbol(')');
      return { kind: 'derived-table', lateral: true, query, ...this.parseTableAlias(pos) };
    }
    if (this.isKeyword('TABLE') && this.isSymbolAt(1, '(')) return this.parseTableFunction(false, pos);
    if (this.isKeyword('UNNEST') && this.isSymbolAt(1, '(')) {
      this.i += 2;
      const exprs = [this.parseExpression()];
      while (this.acceptSymbol(',')) exprs.push(this.parseExpression());
      this.expectSymbol(')');
      const withOrdinality = this.acceptKeywords('WITH', 'ORDINALITY');
      return { kind: 'unnest', exprs, withOrdinality, ...this.parseTableAlias(pos) };
    }
    const name = this.parseObjectName();
    const hints = this.parseHints();
    let forSystemTimeAsOf: Expression | null = null;
    if (this.acceptKeywords('FOR', 'SYSTEM_TIME', 'AS', 'OF')) forSystemTimeAsOf = this.parseExpression();
    if (forSystemTimeAsOf === null && this.isKeyword('MATCH_RECOGNIZE')) {
      return { ...this.parseMatchRecognize({ kind: 'table', name, hints, forSystemTimeAsOf, alias: null, columnAliases: [], pos }), ...this.parseTableAlias(pos) };
    }
    return { kind: 'table', name, hints, forSystemTimeAsOf, ...this.parseTableAlias(pos) };
  }

  private parseTableFunction(lateral: boolean, pos: SourcePosition): TableRef {
    this.expectKeywords('TABLE');
    this.expectSymbol('(');
    const callPos = this.pos;
    const call = this.parseExpression();
    if (call.kind !== 'function-call') throw this.errorAt(callPos, 'Expected a table function call inside TABLE(...)');
    this.expectSymbol(')');
    return { kind: 'table-function', lateral, call: call satisfies FunctionCall, ...this.parseTableAlias(pos) };
  }

  private parseTableAlias(pos: SourcePosition): { alias: Name | null; columnAliases: Name[]; pos: SourcePosition } {
    const alias = this.parseAlias();
    const columnAliases = alias !== null && this.isSymbol('(') ? this.parseParenNameList() : [];
    return { alias, columnAliases, pos };
  }
}
