import { describe, expect, it } from 'vitest';
import { bindExpression } from '../../../src/planner/binder/bind-expression.js';
import { Scope } from '../../../src/planner/binder/scope.js';
import { createBuiltinRegistry } from '../../../src/planner/functions/builtin-registry.js';
import { sqlTypeName } from '../../../src/planner/expressions/type-rules.js';
import { compileRex } from '../../../src/planner/rex/compile-rex.js';
import type { RexNode } from '../../../src/planner/rex/rex-node.js';
import { parseExpression } from '../../../src/sql/parse.js';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';

// The SQL/JSON functions through binder -> RexNode -> code generator. Cases and expected values come from
// Flink's JsonFunctionsITCase (flink-table-planner/src/test/java/.../functions/JsonFunctionsITCase.java),
// whose documents are flink-table-planner/src/test/resources/json/json-exists.json (f0 of jsonExistsSpec,
// here `ex`) and json-value.json (f0 of jsonValueSpec, here `val`); each case names its spec.
const JSON_EXISTS_DOC = JSON.stringify({
  type: 'post',
  author: { name: 'Jon Doe', address: { country: 'Germany', city: 'Munich' } },
  metadata: { tags: ['flink', 'streaming', 'json'], references: [{ name: 'GitHub', url: 'https://www.github.com/apache/flink' }] },
});
const JSON_VALUE_DOC = `{
  "type": "account",
  "age": 42,
  "activated": true,
  "address": {
    "city": "Munich"
  },
  "roles": ["user", "viewer"],
  "balance": 13.37,
  "longBalance": 123456789.987654321,
  "bigCount": 9999999999,
  "nullField": null,
  "contains blank": "right"
}`;

const scope = new Scope([
  { qualifier: null, name: 'ex', type: T.STRING() },
  { qualifier: null, name: 'val', type: T.STRING() },
  { qualifier: null, name: 'i', type: T.INT() },
  { qualifier: null, name: 'n', type: T.INT() },
]);
const functions = createBuiltinRegistry();
const bind = (sql: string): RexNode => bindExpression(parseExpression(sql), { scope, timeZone: 'UTC', functions });
const run = (sql: string): unknown => compileRex(bind(sql))([JSON_EXISTS_DOC, JSON_VALUE_DOC, 42, null]);
const typeOf = (sql: string): string => sqlTypeName(bind(sql).type);

describe('JSON_EXISTS (JsonFunctionsITCase.jsonExistsSpec)', () => {
  it('answers per path, lax', () => {
    expect(run("JSON_EXISTS(CAST(NULL AS STRING), 'lax $')")).toBeNull();
    expect(run("JSON_EXISTS(ex, 'lax $')")).toBe(true);
    expect(run("JSON_EXISTS(ex, 'lax $.type')")).toBe(true);
    expect(run("JSON_EXISTS(ex, 'lax $.author.address.city')")).toBe(true);
    expect(run("JSON_EXISTS(ex, 'lax $.metadata.tags[0]')")).toBe(true);
    expect(run("JSON_EXISTS(ex, 'lax $.metadata.tags[3]')")).toBe(false);
    expect(run("JSON_EXISTS(ex, 'lax $.metadata.references[0].url')")).toBe(true);
    expect(run("JSON_EXISTS(ex, 'lax $.metadata.references[0].invalid')")).toBe(false);
    expect(run("JSON_EXISTS(ex, '$.items[*]')")).toBe(false);
    expect(run("JSON_EXISTS(ex, '$.metadata.tags[*]')")).toBe(true);
  });

  it('applies ON ERROR to a strict path that selects nothing', () => {
    expect(run("JSON_EXISTS(ex, 'strict $.invalid' TRUE ON ERROR)")).toBe(true);
    expect(run("JSON_EXISTS(ex, 'strict $.invalid' FALSE ON ERROR)")).toBe(false);
    expect(run("JSON_EXISTS(ex, 'strict $.invalid' UNKNOWN ON ERROR)")).toBeNull();
    expect(() => run("JSON_EXISTS(ex, 'strict $.invalid' ERROR ON ERROR)")).toThrow("No results for path: $['invalid']");
    expect(typeOf("JSON_EXISTS(ex, '$.a')")).toBe('BOOLEAN');
  });
});

describe('JSON_VALUE (JsonFunctionsITCase.jsonValueSpec)', () => {
  it('extracts scalars as STRING by default', () => {
    expect(run("JSON_VALUE(CAST(NULL AS STRING), 'lax $')")).toBeNull();
    expect(run("JSON_VALUE(val, '$.balance')")).toBe('13.37');
    expect(run("JSON_VALUE(val, '$.type')")).toBe('account');
    expect(typeOf("JSON_VALUE(val, '$.type')")).toBe('VARCHAR(2147483647)');
  });

  it('keeps the digits of a number as written', () => {
    expect(run("JSON_VALUE(val, '$.longBalance')")).toBe('123456789.987654321');
    // Not from Flink's tests: the digits survive JSON_QUERY too, and digits inside strings are untouched.
    expect(run(`JSON_QUERY('{"a": [1.50, 123456789.987654321, "7.0"]}', '$.a')`)).toBe('[1.50,123456789.987654321,"7.0"]');
  });

  it('casts to the RETURNING type', () => {
    expect(run("JSON_VALUE(val, '$.activated' RETURNING BOOLEAN)")).toBe(true);
    expect(run("JSON_VALUE(val, '$.age' RETURNING INT)")).toBe(42);
    expect(run("JSON_VALUE(val, '$.balance' RETURNING DOUBLE)")).toBe(13.37);
    expect(run("JSON_VALUE(val, '$.longBalance' RETURNING DOUBLE)")).toBe(123456789.987654321);
    expect(run("JSON_VALUE(val, '$.age' RETURNING TINYINT)")).toBe(42);
    expect(run("JSON_VALUE(val, '$.age' RETURNING SMALLINT)")).toBe(42);
    expect(run("JSON_VALUE(val, '$.age' RETURNING BIGINT)")).toBe(42n);
    expect(run("JSON_VALUE(val, '$.bigCount' RETURNING BIGINT)")).toBe(9999999999n);
    expect(run("JSON_VALUE(val, '$.balance' RETURNING FLOAT)")).toBeCloseTo(13.37, 5);
    expect(run("JSON_VALUE(val, '$.balance' RETURNING DECIMAL(10, 2))")).toEqual(Decimal.parse('13.37'));
    expect(typeOf("JSON_VALUE(val, '$.age' RETURNING INT)")).toBe('INTEGER');
  });

  it('applies ON EMPTY and ON ERROR', () => {
    expect(run("JSON_VALUE(val, 'lax $.invalid' NULL ON EMPTY ERROR ON ERROR)")).toBeNull();
    expect(run("JSON_VALUE(val, 'lax $.invalid' RETURNING INTEGER DEFAULT 42 ON EMPTY ERROR ON ERROR)")).toBe(42);
    expect(run("JSON_VALUE(val, 'strict $.invalid' ERROR ON EMPTY NULL ON ERROR)")).toBeNull();
    expect(run("JSON_VALUE(val, 'strict $.invalid' RETURNING INTEGER NULL ON EMPTY DEFAULT 42 ON ERROR)")).toBe(42);
    // A JSON null at a valid path is empty (default NULL ON EMPTY).
    expect(run("JSON_VALUE(val, '$.nullField' RETURNING INTEGER)")).toBeNull();
    // A string that does not cast to the RETURNING type is an error.
    expect(run("JSON_VALUE(val, '$.type' RETURNING INTEGER DEFAULT 42 ON ERROR)")).toBe(42);
    expect(() => run("JSON_VALUE(val, '$.type' RETURNING INTEGER ERROR ON ERROR)")).toThrow(/Cannot cast/);
  });

  it('treats a value the RETURNING type cannot hold as an error (ON ERROR)', () => {
    expect(run("JSON_VALUE(val, '$.bigCount' RETURNING INTEGER)")).toBeNull();
    expect(run("JSON_VALUE(val, '$.longBalance' RETURNING DECIMAL(5, 2))")).toBeNull();
    expect(run("JSON_VALUE(val, '$.longBalance' RETURNING DECIMAL(5, 2) DEFAULT '0.00' ON ERROR)")).toEqual(Decimal.parse('0.00'));
    expect(run("JSON_VALUE(val, '$.bigCount' RETURNING INTEGER DEFAULT -1 ON ERROR)")).toBe(-1);
    expect(run("CAST(JSON_VALUE(val, '$.balance' RETURNING DOUBLE) AS BIGINT)")).toBe(13n);
  });

  it('reads a bracketed member with a blank after a dot', () => {
    expect(run("JSON_VALUE(val, 'strict $.[''contains blank'']' NULL ON EMPTY DEFAULT 'wrong' ON ERROR)")).toBe('right');
  });

  it('compares typed results by value', () => {
    expect(run(`JSON_VALUE('{"a": 99999, "b": 99999}', '$.a' RETURNING INT) = JSON_VALUE('{"a": 99999, "b": 99999}', '$.b' RETURNING INT)`)).toBe(true);
    expect(run(`JSON_VALUE('{"a": 9999999999, "b": 9999999999}', '$.a' RETURNING BIGINT) = JSON_VALUE('{"a": 9999999999, "b": 9999999999}', '$.b' RETURNING BIGINT)`)).toBe(true);
    expect(run("CAST(JSON_VALUE(val, '$.age' RETURNING INTEGER) AS DOUBLE)")).toBe(42);
  });
});

describe('JSON_QUERY (JsonFunctionsITCase.jsonQuerySpec, document json-query.json)', () => {
  const doc = `'{"n1": 1, "s1": "Test", "o1": {}, "a1": []}'`;
  const q = (rest: string): unknown => run(`JSON_QUERY(${doc}, ${rest})`);

  it('returns arrays and objects, and applies the wrapper', () => {
    expect(run("JSON_QUERY(CAST(NULL AS STRING), '$')")).toBeNull();
    expect(run(`JSON_QUERY('{ "a": "[1,2]", "b": [1,2]}', '$.b')`)).toBe('[1,2]');
    expect(run(`JSON_QUERY('{ "a": "[1,2]", "b": [1,2]}', '$.b' WITH CONDITIONAL WRAPPER)`)).toBe('[1,2]');
    expect(run(`JSON_QUERY('{ "a": "[1,2]", "b": [1,2]}', '$.a')`)).toBeNull();
    expect(run(`JSON_QUERY('{ "a": "[1,2]", "b": [1,2]}', '$.a' WITH CONDITIONAL WRAPPER)`)).toBe('["[1,2]"]');
    expect(q("'$.a1' WITHOUT WRAPPER")).toBe('[]');
    expect(q("'$.a1' WITH CONDITIONAL WRAPPER")).toBe('[]');
    expect(q("'$.o1' WITH CONDITIONAL WRAPPER")).toBe('[{}]');
    expect(q("'$.a1' WITH UNCONDITIONAL WRAPPER")).toBe('[[]]');
    expect(q("'$.n1' WITH CONDITIONAL WRAPPER")).toBe('[1]');
    expect(q("'$.s1' WITH CONDITIONAL WRAPPER")).toBe('["Test"]');
  });

  it('applies ON EMPTY to a lax path and ON ERROR to a strict one', () => {
    expect(q("'lax $.err1' NULL ON EMPTY")).toBeNull();
    expect(q("'lax $.err2' EMPTY ARRAY ON EMPTY")).toBe('[]');
    expect(q("'lax $.err3' EMPTY OBJECT ON EMPTY")).toBe('{}');
    expect(() => q("'lax $.err4' ERROR ON EMPTY")).toThrow('Empty result of JSON_QUERY function is not allowed');
    expect(q("'strict $.err6' NULL ON ERROR")).toBeNull();
    expect(q("'strict $.err7' EMPTY ARRAY ON ERROR")).toBe('[]');
    expect(q("'strict $.err8' EMPTY OBJECT ON ERROR")).toBe('{}');
    expect(() => q("'strict $.err9' ERROR ON ERROR")).toThrow('No results for path');
  });

  it('refuses RETURNING other than a VARCHAR or an ARRAY of VARCHAR, and EMPTY OBJECT for an ARRAY (as Flink 2.3)', () => {
    expect(() => bind(`JSON_QUERY(${doc}, '$.n1' RETURNING INTEGER)`)).toThrow("Unsupported type 'INTEGER' for RETURNING in JSON_QUERY()");
    expect(() => bind(`JSON_QUERY(${doc}, '$.n1' RETURNING CHAR(30))`)).toThrow("Unsupported type 'CHAR(30)'");
    expect(() => bind(`JSON_QUERY(${doc}, '$.a1' RETURNING ARRAY<INTEGER>)`)).toThrow("Unsupported array element type 'INTEGER' for RETURNING ARRAY");
    expect(() => bind(`JSON_QUERY(${doc}, '$.a1' RETURNING ARRAY<CHAR(3)>)`)).toThrow("Unsupported array element type 'CHAR(3)'");
    expect(() => bind(`JSON_QUERY(${doc}, '$.a1' RETURNING ARRAY<STRING> EMPTY OBJECT ON EMPTY)`)).toThrow("Illegal on empty behavior 'EMPTY OBJECT'");
    expect(() => bind(`JSON_QUERY(${doc}, '$.a1' RETURNING ARRAY<STRING> EMPTY OBJECT ON ERROR)`)).toThrow("Illegal on error behavior 'EMPTY OBJECT'");
  });

  it('cuts the text to RETURNING VARCHAR(n), the EMPTY OBJECT default too (answers of a real Flink 2.3)', () => {
    expect(run(`JSON_QUERY('{"a":[1,"x"]}', '$.a' RETURNING VARCHAR(3))`)).toBe('[1,');
    expect(run(`JSON_QUERY('{"a":"abcdef"}', 'lax $.a' RETURNING VARCHAR(3) WITH CONDITIONAL WRAPPER)`)).toBe('["a');
    expect(run(`JSON_QUERY('{"a":1}', 'lax $.b' RETURNING VARCHAR(1) EMPTY OBJECT ON EMPTY)`)).toBe('{');
    expect(typeOf(`JSON_QUERY('{"a":1}', '$.a' RETURNING VARCHAR(3))`)).toBe('VARCHAR(3)');
  });
});

describe('JSON_QUERY ... RETURNING ARRAY<STRING> (JsonFunctionsITCase.jsonQuerySpec; answers of a real Flink 2.3)', () => {
  it('gives the elements of the selected array: strings as text, numbers as written, JSON null as NULL', () => {
    expect(typeOf(`JSON_QUERY('[]', '$' RETURNING ARRAY<STRING>)`)).toBe('VARCHAR(2147483647) ARRAY');
    expect(run(`JSON_QUERY('{ "a": "[1,2]", "b": [1,2]}', '$.b' RETURNING ARRAY<STRING>)`)).toEqual(['1', '2']);
    expect(run(`JSON_QUERY('{"a":[1,"x",true,null,1.50,{"b":2},[3]]}', '$.a' RETURNING ARRAY<STRING>)`)).toEqual(['1', 'x', 'true', null, '1.50', '{"b":2}', '[3]']);
    expect(run(`JSON_QUERY('{"a":[1e2, -0.0, 12345678901234567890, 1.0E-10]}', '$.a' RETURNING ARRAY<STRING>)`)).toEqual(['1E+2', '0.0', '12345678901234567890', '1.0E-10']);
    expect(run(`JSON_QUERY('{"items": [{"itemId":1234, "count":10}, null]}', '$.items' RETURNING ARRAY<STRING>)`)).toEqual(['{"count":10,"itemId":1234}', null]);
    expect(run(`JSON_QUERY('{"a":[{"c":null},{"c":"c2"}]}', 'lax $.a[*].c' RETURNING ARRAY<STRING> ERROR ON ERROR ERROR ON EMPTY)`)).toEqual([null, 'c2']);
    expect(run(`JSON_QUERY('{"a":[]}', '$.a' RETURNING ARRAY<STRING>)`)).toEqual([]);
    // The element type's length does not cut the elements.
    expect(run(`JSON_QUERY('{"a":["abcd", 12345]}', '$.a' RETURNING ARRAY<VARCHAR(2)>)`)).toEqual(['abcd', '12345']);
    expect(run(`JSON_QUERY(CAST(NULL AS STRING), '$.b' RETURNING ARRAY<STRING>)`)).toBeNull();
  });

  it('applies the wrapper, then ON EMPTY (nothing, a lax scalar) and ON ERROR (strict errors, an object)', () => {
    expect(run(`JSON_QUERY('{ "a": "[1,2]"}', '$.a' RETURNING ARRAY<STRING>)`)).toBeNull();
    expect(run(`JSON_QUERY('{ "a": "[1,2]"}', '$.a' RETURNING ARRAY<STRING> WITH CONDITIONAL WRAPPER)`)).toEqual(['[1,2]']);
    expect(run(`JSON_QUERY('{"a":[1,2]}', '$.a' RETURNING ARRAY<STRING> WITH UNCONDITIONAL ARRAY WRAPPER)`)).toEqual(['[1,2]']);
    expect(run(`JSON_QUERY('{"a":{"b":1}}', '$.a' RETURNING ARRAY<STRING> WITH CONDITIONAL WRAPPER)`)).toEqual(['{"b":1}']);
    expect(() => run(`JSON_QUERY('{ "a": "[1,2]"}', '$.a' RETURNING ARRAY<STRING> WITHOUT WRAPPER ERROR ON ERROR)`)).toThrow(/Strict jsonpath mode requires array or object/);
    expect(run(`JSON_QUERY('{ "a": "[1,2]"}', '$.a' RETURNING ARRAY<STRING> WITHOUT WRAPPER EMPTY ARRAY ON ERROR)`)).toEqual([]);
    expect(run(`JSON_QUERY('{"a":"x"}', 'lax $.a' RETURNING ARRAY<STRING> EMPTY ARRAY ON EMPTY)`)).toEqual([]);
    expect(run(`JSON_QUERY('{"a":1}', 'lax $.b' RETURNING ARRAY<STRING>)`)).toBeNull();
    expect(() => run(`JSON_QUERY('{"a":1}', 'lax $.b' RETURNING ARRAY<STRING> ERROR ON EMPTY)`)).toThrow('Empty result of JSON_QUERY');
    expect(run(`JSON_QUERY('not json', '$.b' RETURNING ARRAY<STRING> EMPTY ARRAY ON ERROR)`)).toEqual([]);
    // A selected object is not an array: an error, so ON ERROR decides even when ON EMPTY is ERROR.
    expect(run(`JSON_QUERY('{"a":{"b":1}}', 'lax $.a' RETURNING ARRAY<STRING> ERROR ON EMPTY)`)).toBeNull();
    expect(run(`JSON_QUERY('{"a":{"b":1}}', '$.a' RETURNING ARRAY<STRING> EMPTY ARRAY ON ERROR)`)).toEqual([]);
    expect(() => run(`JSON_QUERY('{"a":{"b":1}}', '$.a' RETURNING ARRAY<STRING> ERROR ON ERROR)`)).toThrow(/needs a JSON array/);
  });

  it('is an ARRAY value to other functions', () => {
    expect(run(`CARDINALITY(JSON_QUERY('{"a":[1,2,3]}', '$.a' RETURNING ARRAY<STRING>))`)).toBe(3);
    expect(run(`JSON_QUERY('{"a":[1,2,3]}', '$.a' RETURNING ARRAY<STRING>)[2]`)).toBe('2');
    expect(run(`JSON_STRING(JSON_QUERY('{"a":[1,2]}', '$.a' RETURNING ARRAY<STRING>))`)).toBe('["1","2"]');
  });
});

describe('IS JSON (JsonFunctionsITCase.isJsonSpec)', () => {
  it('classifies JSON texts', () => {
    expect(run("'a' IS JSON")).toBe(false);
    expect(run("'a' IS NOT JSON")).toBe(true);
    expect(run(`'"a"' IS JSON SCALAR`)).toBe(true);
    expect(run(`'"a"' IS JSON ARRAY`)).toBe(false);
    expect(run("'{}' IS JSON OBJECT")).toBe(true);
    expect(run("'{}' IS JSON SCALAR")).toBe(false);
    expect(run("'{}' IS JSON VALUE")).toBe(true);
  });
});

describe('JSON_STRING, JSON_OBJECT, JSON_ARRAY (JsonFunctionsITCase.jsonStringSpec / jsonObjectSpec / jsonArraySpec)', () => {
  it('serializes a value', () => {
    expect(run('JSON_STRING(CAST(NULL AS STRING))')).toBeNull();
    expect(run("JSON_STRING('V')")).toBe('"V"');
    expect(run('JSON_STRING(TRUE)')).toBe('true');
    expect(run('JSON_STRING(1)')).toBe('1');
    expect(run('JSON_STRING(1.23)')).toBe('1.23');
    // A real Flink 2.3 keeps the JSON of a JSON_OBJECT / JSON_ARRAY raw (differential seed 31337, query 579).
    expect(run("JSON_STRING(JSON_OBJECT(KEY 'k' VALUE 'one'))")).toBe('{"k":"one"}');
    expect(run("JSON_STRING(JSON_ARRAY(1, 'a'))")).toBe('[1,"a"]');
    expect(run("JSON_STRING('{\"k\":1}')")).toBe('"{\\"k\\":1}"');
  });

  it('builds objects with NULL ON NULL by default and ABSENT ON NULL on request', () => {
    expect(run('JSON_OBJECT()')).toBe('{}');
    expect(run("JSON_OBJECT(KEY 'K' VALUE CAST(NULL AS STRING) NULL ON NULL)")).toBe('{"K":null}');
    expect(run("JSON_OBJECT(KEY 'K' VALUE CAST(NULL AS STRING) ABSENT ON NULL)")).toBe('{}');
    expect(run("JSON_OBJECT(KEY 'K' VALUE CAST(NULL AS STRING))")).toBe('{"K":null}');
    // Flink docs: JSON_OBJECT('K1' VALUE 'V1', 'K2' VALUE JSON_OBJECT('K3' VALUE 'V3')) nests without escaping.
    expect(run("JSON_OBJECT(KEY 'K1' VALUE 'V1', KEY 'K2' VALUE JSON_OBJECT(KEY 'K3' VALUE i))")).toBe('{"K1":"V1","K2":{"K3":42}}');
    expect(typeOf('JSON_OBJECT()')).toBe('VARCHAR(2147483647)');
    expect(bind("JSON_OBJECT(KEY 'K' VALUE n)").type.nullable).toBe(false);
  });

  it('builds arrays with ABSENT ON NULL by default', () => {
    expect(run('JSON_ARRAY()')).toBe('[]');
    expect(run('JSON_ARRAY(n)')).toBe('[]');
    expect(run('JSON_ARRAY(n NULL ON NULL)')).toBe('[null]');
    // Flink docs: JSON_ARRAY(1, '2') = '[1,"2"]', JSON_ARRAY(JSON_ARRAY(1)) = '[[1]]'.
    expect(run("JSON_ARRAY(1, '2')")).toBe('[1,"2"]');
    expect(run('JSON_ARRAY(JSON_ARRAY(1))')).toBe('[[1]]');
  });
});

describe('deep scan paths ($..x)', () => {
  // Calcite evaluates paths with Jayway, whose `..` scans every nesting level; Flink's
  // JsonFunctionsITCase.jsonLengthSpec relies on it: on json-exists.json `$..name` matches several values
  // ("Jon Doe", "GitHub") and `$..url` exactly one.
  it('selects a member at any depth, as a list', () => {
    expect(run("JSON_QUERY(ex, '$..name')")).toBe('["Jon Doe","GitHub"]');
    expect(run("JSON_QUERY(ex, '$..url')")).toBe('["https://www.github.com/apache/flink"]');
    expect(run("JSON_EXISTS(ex, '$..city')")).toBe(true);
    // An indefinite path selects a list, empty or not, which counts as found (Calcite: the result is not null).
    expect(run("JSON_EXISTS(ex, '$..nothing')")).toBe(true);
    expect(run("JSON_QUERY(ex, '$..tags[1]')")).toBe('["streaming"]');
  });
});

describe('Flink SqlJsonUtils details: sorted keys, empty vs error', () => {
  it('writes object keys in order (Jackson ORDER_MAP_ENTRIES_BY_KEYS)', () => {
    // JsonFunctionsITCase.jsonSpec: KEY 'outerKey' ..., KEY 'nestedObject' ... prints nestedObject first.
    expect(run("JSON_OBJECT(KEY 'outerKey' VALUE 'outerValue', KEY 'nestedObject' VALUE JSON_OBJECT(KEY 'innerKey' VALUE i))")).toBe(
      '{"nestedObject":{"innerKey":42},"outerKey":"outerValue"}',
    );
    // JsonFunctionsITCase.jsonQuerySpec ("stringifying RETURNING<ARRAY>"): {"itemId":1234, "count":10} is written count first.
    expect(run(`JSON_QUERY('{"items": [{"itemId":1234, "count":10}, null, {"itemId":4567, "count":11}]}', '$.items')`)).toBe(
      '[{"count":10,"itemId":1234},null,{"count":11,"itemId":4567}]',
    );
  });

  it('JSON_VALUE: an object or array is empty in lax mode and an error in strict mode (SqlJsonUtils.jsonValue)', () => {
    expect(run("JSON_VALUE(val, 'lax $.address' DEFAULT 'empty' ON EMPTY DEFAULT 'error' ON ERROR)")).toBe('empty');
    expect(run("JSON_VALUE(val, 'strict $.address' DEFAULT 'empty' ON EMPTY DEFAULT 'error' ON ERROR)")).toBe('error');
    expect(() => run("JSON_VALUE(val, 'strict $.roles' ERROR ON ERROR)")).toThrow(/Strict jsonpath mode requires scalar value/);
  });

  it('JSON_EXISTS is false for a JSON null (SqlJsonUtils.jsonExists: the selected value is non-null)', () => {
    expect(run(`JSON_EXISTS('{"a": null}', '$.a')`)).toBe(false);
    expect(run(`JSON_EXISTS('{"a": 0}', '$.a')`)).toBe(true);
  });

  it('a strict path (the default) that selects a JSON null is an error, ON ERROR decides (answers of a real Flink 2.3)', () => {
    expect(run(`JSON_EXISTS('{"a":1,"b":[true,null]}', '$.b[1]' TRUE ON ERROR)`)).toBe(true);
    expect(run(`JSON_EXISTS('{"d":null}', 'strict $.d' TRUE ON ERROR)`)).toBe(true);
    expect(run(`JSON_EXISTS('{"d":null}', '$.d' UNKNOWN ON ERROR)`)).toBeNull();
    expect(run(`JSON_EXISTS('{"d":null}', 'lax $.d' TRUE ON ERROR)`)).toBe(false);
    expect(run(`JSON_EXISTS('[null]', 'lax $[0]' TRUE ON ERROR)`)).toBe(false);
    expect(run(`JSON_VALUE('{"d":null}', 'lax $.d' DEFAULT 'e' ON EMPTY DEFAULT 'r' ON ERROR)`)).toBe('e');
    expect(run(`JSON_VALUE('{"d":null}', 'strict $.d' DEFAULT 'e' ON EMPTY DEFAULT 'r' ON ERROR)`)).toBe('r');
    expect(run(`JSON_QUERY('{"d":null}', 'lax $.d' WITH WRAPPER EMPTY OBJECT ON EMPTY EMPTY ARRAY ON ERROR)`)).toBe('{}');
    expect(run(`JSON_QUERY('{"d":null}', 'strict $.d' WITH WRAPPER EMPTY OBJECT ON EMPTY EMPTY ARRAY ON ERROR)`)).toBe('[]');
    expect(run(`JSON_QUERY('{"d":null}', '$.d' WITH CONDITIONAL ARRAY WRAPPER EMPTY OBJECT ON ERROR)`)).toBe('{}');
    expect(run(`JSON_QUERY('{"d":null}', 'lax $.d' WITH WRAPPER)`)).toBeNull();
  });
});

describe('JSON_STRING of structured values (JsonFunctionsITCase.jsonStringSpec)', () => {
  it('writes maps and rows as objects with keys in order, arrays as arrays', () => {
    expect(run("JSON_STRING(MAP['M2', 'V2', 'M1', 'V1'])")).toBe('{"M1":"V1","M2":"V2"}');
    expect(run("JSON_STRING(ARRAY['A1', 'A2', 'A3'])")).toBe('["A1","A2","A3"]');
    expect(run('JSON_STRING(CAST(ROW(1, 2) AS ROW<z INT, a INT>))')).toBe('{"a":2,"z":1}');
  });
});

// Each expected text is what a real Flink 2.3 printed for the same expression (JsonGenerateUtils writes the value).
describe('JSON text of SQL values in JSON_STRING / JSON_OBJECT / JSON_ARRAY (answers of a real Flink 2.3)', () => {
  it('writes a TIMESTAMP as ISO text and a TIMESTAMP_LTZ as the UTC instant with a Z', () => {
    expect(run("JSON_STRING(CAST(TIMESTAMP '1990-06-02 13:37:42.001' AS TIMESTAMP(3)))")).toBe('"1990-06-02T13:37:42.001"');
    expect(run("JSON_STRING(CAST(TIMESTAMP '1990-06-02 13:37:00' AS TIMESTAMP(0)))")).toBe('"1990-06-02T13:37:00"');
    expect(run("JSON_STRING(CAST(TIMESTAMP '1990-06-02 00:00:00' AS TIMESTAMP(3)))")).toBe('"1990-06-02T00:00:00"');
    expect(run("JSON_STRING(CAST(TIMESTAMP '1990-06-02 13:37:42.1' AS TIMESTAMP(3)))")).toBe('"1990-06-02T13:37:42.1"');
    expect(run("JSON_STRING(CAST(TIMESTAMP '1990-06-02 13:37:42.12' AS TIMESTAMP(2)))")).toBe('"1990-06-02T13:37:42.12"');
    expect(run("JSON_STRING(CAST(TIMESTAMP '1969-12-31 23:59:59.999' AS TIMESTAMP(3)))")).toBe('"1969-12-31T23:59:59.999"');
    expect(run("JSON_STRING(CAST(TIMESTAMP '0099-01-01 00:00:00' AS TIMESTAMP(3)))")).toBe('"0099-01-01T00:00:00"');
    expect(run('JSON_STRING(TO_TIMESTAMP_LTZ(644333862001, 3))')).toBe('"1990-06-02T13:37:42.001Z"');
    expect(run('JSON_STRING(TO_TIMESTAMP_LTZ(644333862000, 3))')).toBe('"1990-06-02T13:37:42Z"');
    expect(run('JSON_STRING(TO_TIMESTAMP_LTZ(644333862100, 3))')).toBe('"1990-06-02T13:37:42.1Z"');
    // The instant in UTC whatever the session time zone (Flink 2.3 with table.local-time-zone = Asia/Shanghai too).
    const shanghai = bindExpression(parseExpression('JSON_STRING(TO_TIMESTAMP_LTZ(644333862001, 3))'), { scope, timeZone: 'Asia/Shanghai', functions });
    expect(compileRex(shanghai)([JSON_EXISTS_DOC, JSON_VALUE_DOC, 42, null])).toBe('"1990-06-02T13:37:42.001Z"');
    expect(run("JSON_STRING(CAST(ROW('R1', TO_TIMESTAMP_LTZ(644333862001, 3)) AS ROW<f0 STRING, f1 TIMESTAMP_LTZ(3)>))")).toBe('{"f0":"R1","f1":"1990-06-02T13:37:42.001Z"}');
    expect(run("JSON_STRING(ARRAY[MAP['a', TIMESTAMP '2000-01-01 00:00:00']])")).toBe('[{"a":"2000-01-01T00:00:00"}]');
    expect(run("JSON_OBJECT(KEY 'ts0' VALUE CAST(TIMESTAMP '1990-06-02 13:37:00' AS TIMESTAMP(0)), KEY 'b' VALUE X'0102ff', KEY 'a' VALUE ARRAY[1, 2], KEY 'm' VALUE MAP['k', 1], KEY 'r' VALUE ROW(1, 'x'))")).toBe(
      '{"a":[1,2],"b":"AQL/","m":{"k":1},"r":{"EXPR$0":1,"EXPR$1":"x"},"ts0":"1990-06-02T13:37:00"}',
    );
  });

  it('writes numbers as Jackson writes the Java value, nested ones too', () => {
    expect(run('JSON_STRING(ROW(ROW(1.5, X\'01\')))')).toBe('{"EXPR$0":{"EXPR$0":1.5,"EXPR$1":"AQ=="}}');
    expect(run('JSON_STRING(ARRAY[CAST(1.5 AS DECIMAL(4, 2))])')).toBe('[1.50]');
    expect(run("JSON_STRING(MAP[CAST('k' AS CHAR(2)), 1.5])")).toBe('{"k ":1.5}');
    // A FLOAT is widened to a double.
    expect(run('JSON_STRING(CAST(0.1 AS FLOAT))')).toBe('0.10000000149011612');
    expect(run("JSON_STRING(MAP['k', CAST(0.1 AS FLOAT)])")).toBe('{"k":0.10000000149011612}');
    expect(run("JSON_STRING(CAST('NaN' AS DOUBLE))")).toBe('"NaN"');
    expect(run('JSON_STRING(1e300)')).toBe('1.0E+300');
    expect(run('JSON_ARRAY(CAST(1.50 AS DECIMAL(5, 2)), CAST(100 AS DOUBLE))')).toBe('[1.50,100.0]');
  });

  it('refuses a DATE, a TIME, an INTERVAL anywhere in the value and a MAP with keys that are not strings', () => {
    expect(() => bind("JSON_STRING(DATE '2024-03-05')")).toThrow("Type 'DATE' is not scalar or cannot be converted into JSON");
    expect(() => bind("JSON_STRING(TIME '11:22:33')")).toThrow(/TIME.* cannot be converted into JSON/);
    expect(() => bind("JSON_STRING(INTERVAL '2' DAY)")).toThrow(/cannot be converted into JSON/);
    expect(() => bind("JSON_STRING(ROW(1, DATE '2024-03-05'))")).toThrow(/DATE.* cannot be converted into JSON/);
    expect(() => bind("JSON_STRING(MAP['k', DATE '2024-03-05'])")).toThrow(/DATE/);
    expect(() => bind("JSON_STRING(MAP[1, 'x'])")).toThrow('The key type must be a character string');
    expect(() => bind("JSON_OBJECT(KEY 't' VALUE TIME '11:22:33')")).toThrow(/TIME.* cannot be converted into JSON/);
    expect(() => bind("JSON_ARRAY(ARRAY[DATE '2024-03-05'])")).toThrow(/DATE/);
  });
});

// Flink 2.1+'s VARIANT: each expected text is what a real Flink 2.3 printed for the same PARSE_JSON text.
describe('PARSE_JSON / TRY_PARSE_JSON and VARIANT values (JsonFunctionsITCase PARSE_JSON / TRY_PARSE_JSON)', () => {
  it('gives a VARIANT printed as canonical JSON: keys sorted, longs, decimals without trailing zeros, doubles as Java', () => {
    expect(typeOf(`PARSE_JSON('{"a":1}')`)).toBe('VARIANT');
    expect(run(`PARSE_JSON('{"b":1,"a":2}')`)).toBe('{"a":2,"b":1}');
    expect(run(`PARSE_JSON('{"a": {"c": 1.5, "b": [true]}}')`)).toBe('{"a":{"b":[true],"c":1.5}}');
    expect(run(`PARSE_JSON('[1, "x", null, true]')`)).toBe('[1,"x",null,true]');
    expect(run(`PARSE_JSON('"str"')`)).toBe('"str"');
    expect(run(`PARSE_JSON('null')`)).toBe('null');
    expect(run(`PARSE_JSON('null') IS NULL`)).toBe(false);
    expect(run(`PARSE_JSON('1.50')`)).toBe('1.5');
    expect(run(`PARSE_JSON('1.0')`)).toBe('1');
    expect(run(`PARSE_JSON('0.000001')`)).toBe('0.000001');
    expect(run(`PARSE_JSON('-0')`)).toBe('0');
    expect(run(`PARSE_JSON('12345678901234567890')`)).toBe('12345678901234567890');
    expect(run(`PARSE_JSON('123456789012345678901234567890123456789012')`)).toBe('1.2345678901234568E41');
    expect(run(`PARSE_JSON('1e2')`)).toBe('100.0');
    expect(run(`PARSE_JSON('1E-7')`)).toBe('1.0E-7');
    expect(run(`PARSE_JSON('1e400')`)).toBe('Infinity');
    expect(run(`PARSE_JSON(CAST(NULL AS STRING))`)).toBeNull();
    expect(() => run(`PARSE_JSON('not json')`)).toThrow('Failed to parse json string');
  });

  it('TRY_PARSE_JSON is NULL for text that is not JSON', () => {
    expect(run(`TRY_PARSE_JSON('not json')`)).toBeNull();
    expect(run(`TRY_PARSE_JSON('{"a": 1}')`)).toBe('{"a":1}');
    expect(run(`TRY_PARSE_JSON('1e400')`)).toBe('Infinity');
  });

  it('is embedded as JSON by JSON_STRING, JSON_OBJECT and JSON_ARRAY, and compares by value', () => {
    expect(run(`JSON_STRING(PARSE_JSON('{"b":1,"a":[2, "x"]}'))`)).toBe('{"a":[2,"x"],"b":1}');
    expect(run(`JSON_STRING(TRY_PARSE_JSON('1e400'))`)).toBe('Infinity');
    expect(run(`JSON_STRING(PARSE_JSON('null'))`)).toBe('null');
    expect(run(`JSON_OBJECT(KEY 'k' VALUE PARSE_JSON('{"a":1}'))`)).toBe('{"k":{"a":1}}');
    expect(run(`JSON_ARRAY(PARSE_JSON('[1]'))`)).toBe('[[1]]');
    expect(run(`PARSE_JSON('{"a": 1}') = PARSE_JSON('{"a":1}')`)).toBe(true);
  });
});
