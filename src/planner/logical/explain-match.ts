import type { RexNode } from '../rex/rex-node.js';
import type { MatchNode, MatchPatternElement, MatchSkip } from './match-node.js';

/** Calcite's rendering of a pattern variable name literal. */
const sym = (v: string): string => `_UTF-16LE'${v}'`;

/**
 * Flink's `Match(...)` node text: partitionBy, orderBy, measures (FINAL semantics), rowsPerMatch, after, pattern
 * (Calcite's nested concatenation with PATTERN_QUANTIFIER(variable, min, max or -1, reluctant)) and define.
 * `rex` prints an expression whose input field i is ref i, named by `texts`.
 */
export function matchText(n: MatchNode, rex: (e: RexNode, texts: readonly string[]) => string): string {
  const inNames = n.input.fields.map((f) => f.name);
  const parts: string[] = [];
  if (n.partitionKeys.length > 0) parts.push(`partitionBy=[${n.partitionKeys.map((k) => inNames[k]).join(', ')}]`);
  parts.push(`orderBy=[${n.orderKeys.map((k) => `${inNames[k.index]} ${k.descending ? 'DESC' : 'ASC'}`).join(', ')}]`);
  parts.push(`measures=[${n.measures.map((m) => `FINAL(${rex(m.expr.rex, m.expr.texts)}) AS ${m.name}`).join(', ')}]`);
  parts.push('rowsPerMatch=[ONE ROW PER MATCH]');
  parts.push(`after=[${skipText(n.skip)}]`);
  parts.push(`pattern=[${patternText(n.pattern)}]`);
  parts.push(`define=[{${n.defines.map((d) => `${d.variable}=${rex(d.expr.rex, d.expr.texts)}`).join(', ')}}]`);
  return `Match(${parts.join(', ')})`;
}

function skipText(s: MatchSkip): string {
  switch (s.kind) {
    case 'past-last-row':
      return 'SKIP PAST LAST ROW';
    case 'to-next-row':
      return 'SKIP TO NEXT ROW';
    case 'to-first':
      return `SKIP TO FIRST ${sym(s.variable)}`;
    case 'to-last':
      return `SKIP TO LAST ${sym(s.variable)}`;
  }
}

function elementText(e: MatchPatternElement): string {
  if (e.min === 1 && e.max === 1) return sym(e.variable);
  return `PATTERN_QUANTIFIER(${sym(e.variable)}, ${e.min}, ${e.max ?? -1}, ${e.reluctant})`;
}

/** `((A, B), C)`: Calcite nests a concatenation to the left. */
function patternText(pattern: readonly MatchPatternElement[]): string {
  let s = elementText(pattern[0]!);
  for (const e of pattern.slice(1)) s = `(${s}, ${elementText(e)})`;
  return s;
}

/**
 * Calcite's `LogicalMatch(...)` for the AST section, as Flink 2.3.0 prints it: fields by index, the skip target
 * in parentheses, the DEFINE conditions in order without their variables.
 */
export function logicalMatchText(n: MatchNode, rex: (e: RexNode, texts: readonly string[]) => string): string {
  const order = n.orderKeys.map((k) => `${k.index} ${k.descending ? 'DESC' : 'ASC'}-nulls-${k.nullsFirst ? 'first' : 'last'}`);
  const s = n.skip;
  const after = s.kind === 'to-first' || s.kind === 'to-last' ? `SKIP TO ${s.kind === 'to-first' ? 'FIRST' : 'LAST'}(${sym(s.variable)})` : `FLAG(${skipText(s)})`;
  const parts = [
    `partition=[[${n.partitionKeys.join(', ')}]]`,
    `order=[[${order.join(', ')}]]`,
    `outputFields=[[${n.fields.map((f) => f.name).join(', ')}]]`,
    'allRows=[false]',
    `after=[${after}]`,
    `pattern=[${patternText(n.pattern)}]`,
    'isStrictStarts=[false]',
    'isStrictEnds=[false]',
    ...(n.withinText === null ? [] : [`interval=[${n.withinText}]`]),
    'subsets=[[]]',
    `patternDefinitions=[[${n.defines.map((d) => rex(d.expr.rex, d.expr.texts)).join(', ')}]]`,
    `inputFields=[[${n.input.fields.map((f) => f.name).join(', ')}]]`,
  ];
  return `LogicalMatch(${parts.join(', ')})`;
}
