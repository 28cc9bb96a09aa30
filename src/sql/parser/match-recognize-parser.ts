import type { AfterMatchSkip, MatchRecognizeRef, Measure, PatternDefinition, PatternQuantifier, PatternTerm } from '../ast/match-recognize.js';
import type { Expression } from '../ast/expressions.js';
import type { Name } from '../ast/names.js';
import type { OrderItem, TableRef } from '../ast/query.js';
import type { SourcePosition } from '../position.js';
import { ExpressionParser } from './expression-parser.js';

/**
 * The MATCH_RECOGNIZE clause after a table reference, in Calcite's clause order. The pattern is a
 * concatenation of quantified variables; what Flink cannot run (alternation, groups, PERMUTE, exclusion,
 * SUBSET) is refused here with its position and, where Flink has one, Flink's message.
 */
export abstract class MatchRecognizeParser extends ExpressionParser {
  /** Called with MATCH_RECOGNIZE as the current token; `input` is the table reference before it. */
  protected parseMatchRecognize(input: TableRef): Omit<MatchRecognizeRef, 'alias' | 'columnAliases'> {
    const pos = this.expectKeywords('MATCH_RECOGNIZE').pos;
    this.expectSymbol('(');
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
    const measures: Measure[] = [];
    if (this.acceptKeywords('MEASURES')) {
      do {
        if (this.isKeyword('RUNNING') || this.isKeyword('FINAL')) {
          // FINAL is the only semantics of ONE ROW PER MATCH; RUNNING needs ALL ROWS PER MATCH.
          if (this.isKeyword('RUNNING')) throw this.errorAt(this.pos, 'RUNNING measures are not supported (only FINAL semantics, as Flink)');
          this.next();
        }
        const expr = this.parseExpression();
        this.expectKeywords('AS');
        measures.push({ expr, alias: this.parseName() });
      } while (this.acceptSymbol(','));
    }
    let rowsPerMatch: MatchRecognizeRef['rowsPerMatch'] = null;
    const rowsPos = this.pos;
    if (this.acceptKeywords('ONE', 'ROW', 'PER', 'MATCH')) rowsPerMatch = { kind: 'ONE', pos: rowsPos };
    else if (this.acceptKeywords('ALL', 'ROWS', 'PER', 'MATCH')) rowsPerMatch = { kind: 'ALL', pos: rowsPos };
    const afterMatch = this.acceptKeywords('AFTER', 'MATCH', 'SKIP') ? this.parseSkip() : null;
    const patternPos = this.expectKeywords('PATTERN').pos;
    this.expectSymbol('(');
    const pattern = this.parsePatternTerms();
    this.expectSymbol(')');
    const within = this.acceptKeywords('WITHIN') ? this.parseExpression() : null;
    if (this.isKeyword('SUBSET')) throw this.errorAt(this.pos, 'SUBSET in MATCH_RECOGNIZE is not supported (as in Flink)');
    this.expectKeywords('DEFINE');
    const define: PatternDefinition[] = [];
    do {
      const variable = this.parseName();
      this.expectKeywords('AS');
      define.push({ variable, condition: this.parseExpression() });
    } while (this.acceptSymbol(','));
    this.expectSymbol(')');
    return { kind: 'match-recognize', input, partitionBy, orderBy, measures, rowsPerMatch, afterMatch, pattern, patternPos, within, define, pos };
  }

  private parseSkip(): AfterMatchSkip {
    if (this.acceptKeywords('PAST', 'LAST', 'ROW')) return { kind: 'past-last-row' };
    if (this.acceptKeywords('TO', 'NEXT', 'ROW')) return { kind: 'to-next-row' };
    if (this.acceptKeywords('TO', 'FIRST')) return { kind: 'to-first', variable: this.parseName() };
    if (this.acceptKeywords('TO', 'LAST')) return { kind: 'to-last', variable: this.parseName() };
    // Calcite's `SKIP TO v` means SKIP TO LAST v.
    if (this.acceptKeywords('TO')) return { kind: 'to-last', variable: this.parseName() };
    throw this.unexpected();
  }

  /** `A B+ C*? D{2,3}`: a concatenation of variables, each with an optional quantifier. */
  private parsePatternTerms(): PatternTerm[] {
    const terms: PatternTerm[] = [];
    for (;;) {
      this.refuseUnsupportedPattern();
      if (!this.isNameStart()) break;
      const variable: Name = this.parseName();
      terms.push({ variable, quantifier: this.parseQuantifier() });
    }
    if (terms.length === 0) throw this.unexpected();
    this.refuseUnsupportedPattern();
    return terms;
  }

  private refuseUnsupportedPattern(): void {
    const at: SourcePosition = this.pos;
    if (this.isSymbol('|')) throw this.errorAt(at, "Currently, CEP doesn't support branching patterns (alternation '|' in PATTERN)");
    if (this.isSymbol('{') && this.isSymbolAt(1, '-')) throw this.errorAt(at, "Currently, CEP doesn't support PERMUTE and '{-' '-}' patterns");
    if (this.isKeyword('PERMUTE')) throw this.errorAt(at, "Currently, CEP doesn't support PERMUTE and '{-' '-}' patterns");
    if (this.isSymbol('(')) throw this.errorAt(at, 'Pattern groups are not supported in MATCH_RECOGNIZE (as in Flink): a quantifier applies to one variable');
    // The anchor `^` is a lexical error at its position; `$` is part of a name (`B$`), as in Calcite.
  }

  private parseQuantifier(): PatternQuantifier | null {
    const pos = this.pos;
    let min: number;
    let max: number | null;
    if (this.acceptSymbol('*')) [min, max] = [0, null];
    else if (this.acceptSymbol('+')) [min, max] = [1, null];
    else if (this.acceptSymbol('?')) [min, max] = [0, 1];
    else if (this.isSymbol('{') && !this.isSymbolAt(1, '-')) {
      this.next();
      if (this.acceptSymbol(',')) {
        min = 0;
        max = this.parseUnsignedInteger();
      } else {
        min = this.parseUnsignedInteger();
        max = min;
        if (this.acceptSymbol(',')) max = this.isSymbol('}') ? null : this.parseUnsignedInteger();
      }
      this.expectSymbol('}');
      if (max !== null && (max < min || max === 0)) throw this.errorAt(pos, `Invalid quantifier {${min}, ${max}}: needs 0 <= n <= m and m > 0`);
    } else return null;
    const reluctant = this.acceptSymbol('?');
    return { min, max, reluctant, pos };
  }
}
