import { describe, expect, it } from 'vitest';
import { andOf, conjuncts, pullFactors, substitute } from '../../../src/planner/binder/where-ast.js';
import type { Expression } from '../../../src/sql/ast/expressions.js';
import { parseExpression } from '../../../src/sql/parse.js';
import { unparseExpression } from '../../../src/sql/unparse/unparse-expression.js';

const text = (es: readonly Expression[]): string[] => es.map(unparseExpression);

describe('pullFactors', () => {
  it('takes a conjunct common to every branch of an OR out of it, the rest staying an OR', () => {
    expect(text(pullFactors(parseExpression('(r.d = l.b AND r.e < 3) OR (l.a = 3 AND r.d = l.b)')))).toEqual(['`r`.`d` = `l`.`b`', '`r`.`e` < 3 OR `l`.`a` = 3']);
  });

  it('reads p OR (p AND q) as p, and leaves an OR without a common conjunct alone', () => {
    expect(text(pullFactors(parseExpression('x = 1 OR (x = 1 AND y = 2)')))).toEqual(['`x` = 1']);
    expect(text(pullFactors(parseExpression('x = 1 OR y = 2')))).toEqual(['`x` = 1 OR `y` = 2']);
  });
});

describe('substitute', () => {
  it('replaces the given nodes in a copy, leaving the original as it was', () => {
    const e = parseExpression('a + b > c');
    const ids: Expression[] = [];
    const walk = (x: unknown): void => {
      if (typeof x !== 'object' || x === null) return;
      if ((x as Expression).kind === 'identifier') ids.push(x as Expression);
      for (const v of Object.values(x)) walk(v);
    };
    walk(e);
    const b = ids.find((i) => unparseExpression(i) === '`b`')!;
    const out = substitute(e, new Map([[b, { kind: 'identifier', names: ['$cor0'], pos: b.pos } as Expression]]));
    expect(unparseExpression(out)).toBe('`a` + `$cor0` > `c`');
    expect(unparseExpression(e)).toBe('`a` + `b` > `c`');
  });
});

describe('conjuncts and andOf', () => {
  it('split an AND and join the parts again', () => {
    const parts = conjuncts(parseExpression('a = 1 AND (b = 2 AND c = 3)'));
    expect(text(parts)).toEqual(['`a` = 1', '`b` = 2', '`c` = 3']);
    expect(unparseExpression(andOf(parts)!)).toBe('`a` = 1 AND `b` = 2 AND `c` = 3');
    expect(andOf([])).toBeNull();
  });
});
