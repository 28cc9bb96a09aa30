import { describe, expect, it } from 'vitest';
import { bindExpression } from '../../../src/planner/binder/bind-expression.js';
import { Scope } from '../../../src/planner/binder/scope.js';
import { createBuiltinRegistry } from '../../../src/planner/functions/builtin-registry.js';
import { sqlTypeName } from '../../../src/planner/expressions/type-rules.js';
import { compileRex } from '../../../src/planner/rex/compile-rex.js';
import type { RexNode } from '../../../src/planner/rex/rex-node.js';
import { parseExpression } from '../../../src/sql/parse.js';
import { DataTypes as T } from '../../../src/types/data-types.js';

// Flink 2.x types the common type of CHAR values of different lengths as VARCHAR (FlinkTypeSystem
// .shouldConvertRaggedUnionTypesToVarying() = true, "fixes the problem of CASE WHEN with different length
// string literals but get wrong result with additional space suffix"); Flink 1.20 padded to CHAR(max).
// Sluice follows 2.x (docs/differences-from-flink.md).
const scope = new Scope([
  { qualifier: null, name: 'n', type: T.INT() },
  { qualifier: null, name: 'c', type: T.BOOLEAN() },
]);
const functions = createBuiltinRegistry();
const bind = (sql: string): RexNode => bindExpression(parseExpression(sql), { scope, timeZone: 'UTC', functions });
const run = (sql: string, fields: unknown[]): unknown => compileRex(bind(sql))(fields);
const typeOf = (sql: string): string => sqlTypeName(bind(sql).type);

describe('CHAR literals of different lengths meet as VARCHAR (Flink 2.x)', () => {
  const sizes = "CASE WHEN n = 0 THEN 'none' WHEN n < 10 THEN 'few' ELSE 'small' END";

  it('CASE returns the branch unpadded', () => {
    expect(run(sizes, [0, true])).toBe('none');
    expect(run(sizes, [3, true])).toBe('few');
    expect(run(sizes, [30, true])).toBe('small');
    expect(typeOf(sizes)).toBe('VARCHAR(5)');
  });

  it('IF returns the branch unpadded', () => {
    expect(run("IF(c, 'yes', 'no')", [0, false])).toBe('no');
    expect(run("IF(c, 'yes', 'no')", [0, true])).toBe('yes');
    expect(typeOf("IF(c, 'yes', 'no')")).toBe('VARCHAR(3)');
  });

  it('COALESCE, GREATEST and LEAST type as VARCHAR too', () => {
    expect(run("COALESCE(CAST(NULL AS CHAR(1)), 'ab', 'abcd')", [0, true])).toBe('ab');
    expect(typeOf("COALESCE(CAST(NULL AS CHAR(1)), 'ab', 'abcd')")).toBe('VARCHAR(4)');
    expect(run("GREATEST('a', 'bcd')", [0, true])).toBe('bcd');
    expect(run("LEAST('b', 'acd')", [0, true])).toBe('acd');
    expect(typeOf("LEAST('b', 'acd')")).toMatch(/^VARCHAR\(3\)/);
  });

  it('keeps CHAR(n) when every branch has the same length', () => {
    expect(typeOf("CASE WHEN c THEN 'yes' ELSE 'no!' END")).toBe('CHAR(3)');
    expect(run("CASE WHEN c THEN 'yes' ELSE 'no!' END", [0, false])).toBe('no!');
  });

  it('NULLIF keeps its first operand\'s type', () => {
    expect(typeOf("NULLIF('ab', 'abc')")).toBe('CHAR(2)');
  });
});
