import type { AfterMatchSkip, MatchRecognizeRef, PatternQuantifier } from '../ast/match-recognize.js';
import { quoteName } from './identifiers.js';
import { unparseExpression, unparseOrderItem } from './unparse-expression.js';

/** `input MATCH_RECOGNIZE (...)` without the alias, clauses in Calcite's order. */
export function unparseMatchRecognizeClause(ref: MatchRecognizeRef, input: string): string {
  const lines: string[] = [];
  if (ref.partitionBy.length > 0) lines.push(`PARTITION BY ${ref.partitionBy.map(unparseExpression).join(', ')}`);
  if (ref.orderBy.length > 0) lines.push(`ORDER BY ${ref.orderBy.map(unparseOrderItem).join(', ')}`);
  if (ref.measures.length > 0) lines.push(`MEASURES ${ref.measures.map((m) => `${unparseExpression(m.expr)} AS ${quoteName(m.alias.value)}`).join(', ')}`);
  if (ref.rowsPerMatch !== null) lines.push(`${ref.rowsPerMatch.kind} ROW${ref.rowsPerMatch.kind === 'ALL' ? 'S' : ''} PER MATCH`);
  if (ref.afterMatch !== null) lines.push(`AFTER MATCH ${skipText(ref.afterMatch)}`);
  const pattern = ref.pattern.map((t) => quoteName(t.variable.value) + (t.quantifier === null ? '' : quantifierText(t.quantifier))).join(' ');
  lines.push(`PATTERN (${pattern})${ref.within === null ? '' : ` WITHIN ${unparseExpression(ref.within)}`}`);
  lines.push(`DEFINE ${ref.define.map((d) => `${quoteName(d.variable.value)} AS ${unparseExpression(d.condition)}`).join(', ')}`);
  return `${input} MATCH_RECOGNIZE (\n${lines.join('\n')}\n)`;
}

function skipText(s: AfterMatchSkip): string {
  switch (s.kind) {
    case 'past-last-row':
      return 'SKIP PAST LAST ROW';
    case 'to-next-row':
      return 'SKIP TO NEXT ROW';
    case 'to-first':
      return `SKIP TO FIRST ${quoteName(s.variable.value)}`;
    case 'to-last':
      return `SKIP TO LAST ${quoteName(s.variable.value)}`;
  }
}

/** `*`, `+?`, `{2,}` ...: the shortest form that reads back as the same quantifier. */
export function quantifierText(q: Pick<PatternQuantifier, 'min' | 'max' | 'reluctant'>): string {
  let s: string;
  if (q.min === 0 && q.max === null) s = '*';
  else if (q.min === 1 && q.max === null) s = '+';
  else if (q.min === 0 && q.max === 1) s = '?';
  else if (q.max === q.min) s = `{${q.min}}`;
  else s = `{${q.min},${q.max === null ? '' : ` ${q.max}`}}`;
  return q.reluctant ? `${s}?` : s;
}
