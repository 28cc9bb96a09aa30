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

  it('returns a number\'s text as JavaScript prints the double (known difference)', () => {
    // Flink returns '123456789.987654321' (the digits as written); Sluice parses JSON numbers into
    // doubles, so digits beyond double precision are lost. Listed in docs/differences-from-flink.md.
    expect(run("JSON_VALUE(val, '$.longBalance')")).toBe('123456789.98765433');
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

  it('reads a bracketed member with a blank after a dot', () => {
    expect(run("JSON_VALUE(val, 'strict $.[''contains blank'']' NULL ON EMPTY DEFAULT 'wrong' ON ERROR)")).toBe('right');
  });

  it('compares typed results by value', () => {
    expect(run(`JSON_VALUE('{"a": 99999, "b": 99999}', '$.a' RETURNING INT) = JSON_VALUE('{"a": 99999, "b": 99999}', '$.b' RETURNING INT)`)).toBe(true);
    expect(run(`JSON_VALUE('{"a": 9999999999, "b": 9999999999}', '$.a' RETURNING BIGINT) = JSON_VALUE('{"a": 9999999999, "b": 9999999999}', '$.b' RETURNING BIGINT)`)).toBe(true);
    expect(run("CAST(JSON_VALUE(val, '$.age' RETURNING INTEGER) AS DOUBLE)")).toBe(42);
  });
});
