import { describe, expect, it } from 'vitest';
import { PlanningError } from '../../../src/errors/sluice-error.js';
import { bindExpression } from '../../../src/planner/binder/bind-expression.js';
import { Scope } from '../../../src/planner/binder/scope.js';
import { createBuiltinRegistry } from '../../../src/planner/functions/builtin-registry.js';
import { compileRex } from '../../../src/planner/rex/compile-rex.js';
import type { RexNode } from '../../../src/planner/rex/rex-node.js';
import { foldConstants } from '../../../src/planner/rules/constant-folding.js';
import { parseExpression } from '../../../src/sql/parse.js';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';

// SQL expression -> binder -> RexNode -> code generator: the path every planned query takes.
const scope = new Scope([
  { qualifier: null, name: 'i', type: T.INT() },
  { qualifier: null, name: 'b', type: T.BIGINT() },
  { qualifier: null, name: 's', type: T.STRING() },
  { qualifier: null, name: 'ts', type: T.TIMESTAMP(3) },
]);
const functions = createBuiltinRegistry();
const bind = (sql: string): RexNode => bindExpression(parseExpression(sql), { scope, timeZone: 'UTC', functions });
const run = (sql: string, fields: unknown[] = [7, 40n, 'hello', Date.UTC(2024, 2, 5, 22, 30, 15, 123)]): unknown => compileRex(bind(sql))(fields);

describe('bound SQL expressions compiled by the code generator', () => {
  it('evaluates registry functions, keyword operands included', () => {
    expect(run('SUBSTRING(s FROM 2 FOR 3)')).toBe('ell');
    expect(run('EXTRACT(HOUR FROM ts)')).toBe(22n);
    expect(run("TRIM(LEADING 'h' FROM s)")).toBe('ello');
    expect(run('POSITION(\'l\' IN s)')).toBe(3);
    expect(bind('UPPER(s)').kind).toBe('call');
  });

  it('mixes the binder\'s own operators with registry functions', () => {
    expect(run('CHAR_LENGTH(SUBSTRING(s, 2)) + b')).toBe(44n);
    expect(run("CASE WHEN i > 5 THEN CONCAT(s, '!') ELSE 'small' END")).toBe('hello!');
    expect(run('i BETWEEN 1 AND b')).toBe(true);
    expect(run('i IN (1, 2, NULL)')).toBeNull();
  });

  it('casts as Flink 1.15+: lenient booleans, saturating doubles, NULL on DECIMAL overflow', () => {
    expect(run("CAST('yes' AS BOOLEAN)")).toBe(true);
    expect(run('CAST(1e10 AS INT)')).toBe(2147483647);
    expect(run('CAST(123.456 AS DECIMAL(4, 2))')).toBeNull();
    expect(run('CAST(2.5 AS DECIMAL(4, 2))')).toEqual(Decimal.parse('2.50'));
  });

  it('rejects casts between numbers and timestamps when binding', () => {
    expect(() => bind('CAST(i AS TIMESTAMP(3))')).toThrow(PlanningError);
    expect(() => bind('CAST(ts AS BIGINT)')).toThrow(/cannot convert value of type TIMESTAMP\(3\) to type BIGINT/);
  });

  it('constant folding evaluates with the same generator, leaving failing casts in place', () => {
    const folded = foldConstants(bind("UPPER('a') || CAST(1 + 2 AS STRING)"), 'UTC');
    expect(folded).toMatchObject({ kind: 'literal', value: 'A3' });
    const bad = foldConstants(bind("CAST('x' AS INT)"), 'UTC');
    expect(bad.kind).toBe('call');
    expect(() => compileRex(bad)([])).toThrow(/Cannot cast/);
  });
});
