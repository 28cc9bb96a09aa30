import { describe, expect, it } from 'vitest';
import { ExecutionError, PlanningError } from '../../../src/errors/sluice-error.js';
import { typeToString } from '../../../src/types/type-to-string.js';
import { bindCall, inputRef, itemAccess, literal, symbol, fieldAccess } from '../../../src/planner/expressions/expr-factory.js';
import { T, bind, call, evalExpr, fn, sym } from './helpers.js';

const A = T.ARRAY(T.INT());

describe('collections', () => {
  it('constructors', () => {
    expect(call('ARRAY', [[1, T.INT()], [2n, T.BIGINT()]])).toEqual([1n, 2n]);
    expect(typeToString(bind('ARRAY', [[1, T.INT()], [2n, T.BIGINT()]]).call.type)).toBe('ARRAY<BIGINT NOT NULL> NOT NULL');
    expect(call('MAP', [['a', T.STRING()], [1, T.INT()], ['b', T.STRING()], [2, T.INT()]])).toEqual(new Map([['a', 1], ['b', 2]]));
    expect(call('ROW', [[1, T.INT()], ['x', T.STRING()]])).toEqual([1, 'x']);
    expect(() => bind('MAP', [['a', T.STRING()]])).toThrow(PlanningError);
  });
  it('item access is 1-based and null out of range; map lookups by value', () => {
    const arr = inputRef(0, A);
    expect(evalExpr(itemAccess(arr, literal(1, T.INT())), [[10, 20]])).toBe(10);
    expect(evalExpr(itemAccess(arr, literal(3, T.INT())), [[10, 20]])).toBe(null);
    expect(evalExpr(itemAccess(arr, literal(0, T.INT())), [[10, 20]])).toBe(null);
    const m = inputRef(0, T.MAP(T.BIGINT(), T.STRING()));
    expect(evalExpr(itemAccess(m, literal(2n, T.BIGINT())), [new Map([[2n, 'two']])])).toBe('two');
    expect(evalExpr(itemAccess(m, literal(1, T.INT())), [new Map([[1n, 'one']])])).toBe('one');
    expect(() => itemAccess(inputRef(0, T.INT()), literal(1, T.INT()))).toThrow(PlanningError);
  });
  it('field access on ROW values', () => {
    const r = inputRef(0, T.ROW(T.FIELD('a', T.INT()), T.FIELD('b', T.STRING())));
    expect(evalExpr(fieldAccess(r, 'b'), [[1, 'x']])).toBe('x');
    expect(evalExpr(fieldAccess(r, 'b'), [null])).toBe(null);
    expect(() => fieldAccess(r, 'c')).toThrow(PlanningError);
  });
  it('array functions', () => {
    expect(call('CARDINALITY', [[[1, 2, 3], A]])).toBe(3);
    expect(call('CARDINALITY', [[new Map([[1, 1]]), T.MAP(T.INT(), T.INT())]])).toBe(1);
    expect(call('ELEMENT', [[[7], A]])).toBe(7);
    expect(call('ELEMENT', [[[], A]])).toBe(null);
    expect(() => call('ELEMENT', [[[1, 2], A]])).toThrow(ExecutionError);
    expect(call('ARRAY_CONTAINS', [[[1, 2], A], [2, T.INT()]])).toBe(true);
    expect(call('ARRAY_CONTAINS', [[[1, null], A], [null, T.INT()]])).toBe(true);
    expect(call('ARRAY_DISTINCT', [[[1, 2, 1, null, null], A]])).toEqual([1, 2, null]);
    expect(call('ARRAY_POSITION', [[[5, 6, 7], A], [7, T.INT()]])).toBe(3);
    expect(call('ARRAY_POSITION', [[[5, 6, 7], A], [8, T.INT()]])).toBe(0);
    expect(call('ARRAY_REMOVE', [[[1, 2, 1], A], [1, T.INT()]])).toEqual([2]);
    expect(call('ARRAY_SLICE', [[[1, 2, 3, 4], A], [2, T.INT()], [3, T.INT()]])).toEqual([2, 3]);
    expect(call('ARRAY_SLICE', [[[1, 2, 3, 4], A], [-2, T.INT()]])).toEqual([3, 4]);
    expect(call('ARRAY_CONCAT', [[[1], A], [[2, 3], A]])).toEqual([1, 2, 3]);
    expect(call('ARRAY_JOIN', [[['a', null, 'b'], T.ARRAY(T.STRING())], [',', T.STRING()]])).toBe('a,b');
    expect(call('ARRAY_JOIN', [[['a', null, 'b'], T.ARRAY(T.STRING())], [',', T.STRING()], ['?', T.STRING()]])).toBe('a,?,b');
    expect(call('ARRAY_JOIN', [[[1, 2], A], ['-', T.STRING()]])).toBe('1-2');
    expect(call('MAP_KEYS', [[new Map([['a', 1]]), T.MAP(T.STRING(), T.INT())]])).toEqual(['a']);
    expect(call('MAP_VALUES', [[new Map([['a', 1]]), T.MAP(T.STRING(), T.INT())]])).toEqual([1]);
    expect(call('CARDINALITY', [[null, A]])).toBe(null);
  });
});

describe('JSON', () => {
  const S = T.STRING();
  const doc = '{"a":{"b":[1,2,{"c":"x"}]},"n":null,"t":true,"s":"str","num":12.5}';
  it('JSON_VALUE with lax/strict paths, RETURNING and behaviours', () => {
    expect(call('JSON_VALUE', [[doc, S], ['$.a.b[0]', S]])).toBe('1');
    expect(call('JSON_VALUE', [[doc, S], ['$.a.b[2].c', S]])).toBe('x');
    expect(call('JSON_VALUE', [[doc, S], ["$['s']", S]])).toBe('str');
    expect(call('JSON_VALUE', [[doc, S], ['$.missing', S]])).toBe(null);
    expect(call('JSON_VALUE', [[doc, S], ['$.num', S]], { returnType: T.DOUBLE() })).toBe(12.5);
    expect(call('JSON_VALUE', [[doc, S], ['$.a.b[1]', S]], { returnType: T.INT() })).toBe(2);
    expect(call('JSON_VALUE', [[doc, S], ['$.t', S]], { returnType: T.BOOLEAN() })).toBe(true);
    // A path without a mode is strict (a real Flink 2.3: a missing member is an error, not empty).
    expect(call('JSON_VALUE', [[doc, S], ['lax $.missing', S], sym('DEFAULT'), ['dflt', S], sym('NULL'), [null, S]])).toBe('dflt');
    expect(call('JSON_VALUE', [[doc, S], ['$.missing', S], sym('DEFAULT'), ['dflt', S], sym('DEFAULT'), ['err', S]])).toBe('err');
    expect(call('JSON_VALUE', [[doc, S], ['$.a', S]])).toBe(null);
    // An object is empty in lax mode and an error in strict mode (Flink's SqlJsonUtils.jsonValue).
    expect(call('JSON_VALUE', [[doc, S], ['lax $.a', S], sym('NULL'), [null, S], sym('ERROR'), [null, S]])).toBe(null);
    expect(() => call('JSON_VALUE', [[doc, S], ['strict $.a', S], sym('NULL'), [null, S], sym('ERROR'), [null, S]])).toThrow(ExecutionError);
    expect(() => call('JSON_VALUE', [[doc, S], ['strict $.missing', S], sym('NULL'), [null, S], sym('ERROR'), [null, S]])).toThrow(ExecutionError);
    expect(call('JSON_VALUE', [[null, S], ['$.a', S]])).toBe(null);
    expect(call('JSON_VALUE', [['not json', S], ['$.a', S]])).toBe(null);
  });
  it('JSON_QUERY with wrappers, JSON_EXISTS', () => {
    expect(call('JSON_QUERY', [[doc, S], ['$.a', S]])).toBe('{"b":[1,2,{"c":"x"}]}');
    expect(call('JSON_QUERY', [[doc, S], ['$.s', S]])).toBe(null);
    expect(call('JSON_QUERY', [[doc, S], ['$.s', S], sym('WITH CONDITIONAL ARRAY'), sym('NULL'), sym('NULL')])).toBe('["str"]');
    expect(call('JSON_QUERY', [[doc, S], ['$.a.b[*]', S], sym('WITH UNCONDITIONAL ARRAY'), sym('NULL'), sym('NULL')])).toBe('[[1,2,{"c":"x"}]]');
    // A wildcard path selects the list of its matches (Calcite/Jayway); WITHOUT and CONDITIONAL leave that list alone.
    expect(call('JSON_QUERY', [[doc, S], ['$.a.b[*]', S], sym('WITH CONDITIONAL ARRAY'), sym('NULL'), sym('NULL')])).toBe('[1,2,{"c":"x"}]');
    expect(call('JSON_QUERY', [[doc, S], ['$.a.b[*]', S]])).toBe('[1,2,{"c":"x"}]');
    expect(call('JSON_QUERY', [[doc, S], ['lax $.zz', S], sym('WITHOUT ARRAY'), sym('EMPTY ARRAY'), sym('NULL')])).toBe('[]');
    expect(call('JSON_QUERY', [[doc, S], ['$.zz', S], sym('WITHOUT ARRAY'), sym('NULL'), sym('EMPTY OBJECT')])).toBe('{}');
    // Text that is not JSON selects nothing in lax mode (Calcite), and is an error in strict mode.
    expect(call('JSON_QUERY', [['{', S], ['lax $.zz', S], sym('WITHOUT ARRAY'), sym('EMPTY ARRAY'), sym('EMPTY OBJECT')])).toBe('[]');
    expect(call('JSON_QUERY', [['{', S], ['$.zz', S], sym('WITHOUT ARRAY'), sym('EMPTY ARRAY'), sym('EMPTY OBJECT')])).toBe('{}');
    // A wildcard on a scalar selects an empty list, which counts as found; a JSON null document is an error.
    expect(call('JSON_QUERY', [['"s"', S], ['$[*]', S]])).toBe('[]');
    expect(call('JSON_EXISTS', [['{}', S], ['$[*]', S]])).toBe(true);
    expect(call('JSON_EXISTS', [['null', S], ['$[*]', S], sym('TRUE')])).toBe(true);
    expect(call('JSON_EXISTS', [[doc, S], ['$.a.b', S]])).toBe(true);
    expect(call('JSON_EXISTS', [[doc, S], ['$.x', S]])).toBe(false);
    expect(call('JSON_EXISTS', [['{', S], ['$.x', S]])).toBe(false);
  });
  it('JSON_OBJECT, JSON_ARRAY, JSON_STRING, IS JSON', () => {
    const obj = bindCall(fn('JSON_OBJECT'), [symbol('NULL'), literal('k', S), inputRef(0, T.INT()), literal('n', S), inputRef(1, T.INT())]);
    expect(evalExpr(obj, [1, null])).toBe('{"k":1,"n":null}');
    const absent = bindCall(fn('JSON_OBJECT'), [symbol('ABSENT'), literal('k', S), inputRef(0, T.INT()), literal('n', S), inputRef(1, T.INT())]);
    expect(evalExpr(absent, [1, null])).toBe('{"k":1}');
    const nested = bindCall(fn('JSON_ARRAY'), [symbol('ABSENT'), obj, inputRef(1, T.INT()), literal('s', S)]);
    expect(evalExpr(nested, [1, null])).toBe('[{"k":1,"n":null},"s"]');
    const withNulls = bindCall(fn('JSON_ARRAY'), [symbol('NULL'), inputRef(1, T.INT())]);
    expect(evalExpr(withNulls, [1, null])).toBe('[null]');
    expect(call('JSON_STRING', [[[1, 2], A]])).toBe('[1,2]');
    expect(call('JSON_STRING', [['x', S]])).toBe('"x"');
    expect(call('JSON_STRING', [[null, S]])).toBe(null);
    expect(call('IS JSON VALUE', [['{"a":1}', S]])).toBe(true);
    expect(call('IS JSON OBJECT', [['[1]', S]])).toBe(false);
    expect(call('IS JSON ARRAY', [['[1]', S]])).toBe(true);
    expect(call('IS JSON SCALAR', [['1', S]])).toBe(true);
    expect(call('IS NOT JSON VALUE', [['{', S]])).toBe(true);
  });
});
