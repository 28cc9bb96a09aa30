import type { SourcePosition } from '../position.js';
import type { Expression } from './expressions.js';
import type { Name } from './names.js';
import type { OrderItem, TableRef } from './query.js';

/**
 * How many rows a pattern variable takes: `*` {0,}, `+` {1,}, `?` {0,1}, `{n}`, `{n,}`, `{n,m}`, `{,m}`;
 * `max` null = unbounded. `reluctant` for the `?`-suffixed forms (`*?`, `+?`, `{n,m}?`).
 */
export interface PatternQuantifier {
  readonly min: number;
  readonly max: number | null;
  readonly reluctant: boolean;
  readonly pos: SourcePosition;
}

/** One pattern variable of a PATTERN concatenation, with its quantifier (null = exactly one row). */
export interface PatternTerm {
  readonly variable: Name;
  readonly quantifier: PatternQuantifier | null;
}

/** `AFTER MATCH SKIP ...`: where the next match may start. */
export type AfterMatchSkip =
  | { readonly kind: 'past-last-row' }
  | { readonly kind: 'to-next-row' }
  | { readonly kind: 'to-first'; readonly variable: Name }
  | { readonly kind: 'to-last'; readonly variable: Name };

export interface Measure {
  readonly expr: Expression;
  readonly alias: Name;
}

export interface PatternDefinition {
  readonly variable: Name;
  readonly condition: Expression;
}

/**
 * `input MATCH_RECOGNIZE (PARTITION BY ... ORDER BY ... MEASURES ... ONE ROW PER MATCH AFTER MATCH SKIP ...
 * PATTERN (...) [WITHIN interval] DEFINE ...) [AS] alias`, as Flink (Calcite) accepts it. `rowsPerMatch` keeps
 * ALL ROWS PER MATCH so the planner can refuse it with Flink's message and the clause's position.
 */
export interface MatchRecognizeRef {
  readonly kind: 'match-recognize';
  readonly input: TableRef;
  readonly partitionBy: readonly Expression[];
  readonly orderBy: readonly OrderItem[];
  readonly measures: readonly Measure[];
  readonly rowsPerMatch: { readonly kind: 'ONE' | 'ALL'; readonly pos: SourcePosition } | null;
  readonly afterMatch: AfterMatchSkip | null;
  readonly pattern: readonly PatternTerm[];
  readonly patternPos: SourcePosition;
  readonly within: Expression | null;
  readonly define: readonly PatternDefinition[];
  readonly alias: Name | null;
  readonly columnAliases: readonly Name[];
  readonly pos: SourcePosition;
}
