import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { Row } from '../../../src/types/row.js';
import { compileExpression } from '../../../src/planner/expressions/compile.js';
import { bindCall, inputRef, literal } from '../../../src/planner/expressions/expr-factory.js';
import { createBuiltinRegistry } from '../../../src/planner/functions/builtin-registry.js';
import type { AggregateFunctionDefinition, ScalarFunctionDefinition } from '../../../src/planner/functions/function-definition.js';
import { createTemporarySystemFunction } from '../../../src/planner/functions/udf.js';

describe('UDFs', () => {
  it('registers a scalar UDF with declared types and calls it per row; NULL in gives NULL out', () => {
    const r = createBuiltinRegistry();
    createTemporarySystemFunction(r, 'count_char', {
      eval: (s: string, c: string) => s.split(c).length - 1,
      argumentTypes: [T.STRING(), T.STRING()],
      resultType: T.INT(),
    });
    const def = r.lookup('COUNT_CHAR') as ScalarFunctionDefinition;
    const e = bindCall(def, [inputRef(0, T.STRING()), literal('a', T.STRING())]);
    expect(e.type.kind).toBe('INT');
    const f = compileExpression(e);
    expect(f(Row.insert('banana'))).toBe(3);
    expect(f(Row.insert(null))).toBe(null);
  });
  it('a plain function returns STRING; undefined becomes NULL', () => {
    const r = createBuiltinRegistry();
    createTemporarySystemFunction(r, 'shout', (s: string) => (s === '' ? undefined : `${s}!`));
    const f = compileExpression(bindCall(r.lookup('shout') as ScalarFunctionDefinition, [inputRef(0, T.STRING())]));
    expect(f(Row.insert('hi'))).toBe('hi!');
    expect(f(Row.insert(''))).toBe(null);
  });
  it('registers an aggregate UDF', () => {
    const r = createBuiltinRegistry();
    createTemporarySystemFunction(r, 'my_sum', {
      resultType: T.BIGINT(),
      createAccumulator: () => ({ s: 0n }),
      accumulate: (acc: unknown, v: unknown) => { (acc as { s: bigint }).s += v as bigint; },
      getValue: (acc: unknown) => (acc as { s: bigint }).s,
    });
    const def = r.lookup('MY_SUM') as AggregateFunctionDefinition;
    expect(def.kind).toBe('aggregate');
    const f = def.create([T.BIGINT()], { distinct: false });
    const acc = f.createAccumulator();
    f.accumulate(acc, 2n);
    f.accumulate(acc, 3n);
    expect(f.getValue(acc)).toBe(5n);
  });
  it('refuses to shadow an existing name', () => {
    const r = createBuiltinRegistry();
    expect(() => createTemporarySystemFunction(r, 'upper', (s: string) => s)).toThrow(ValidationError);
  });
  it('the registry looks names up case-insensitively and knows aliases', () => {
    const r = createBuiltinRegistry();
    expect(r.lookup('substr')).toBe(r.lookup('SUBSTRING'));
    expect(r.lookup('Character_Length')).toBe(r.lookup('CHAR_LENGTH'));
    expect(r.names().length).toBeGreaterThan(150);
    expect(r.lookup('tumble')?.kind).toBe('window-tvf');
    expect(r.lookup('count')?.kind).toBe('aggregate');
    expect(r.lookup('no_such_function')).toBeUndefined();
  });
});
