import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../../src/api/table-environment.js';
import { createBuiltinRegistry } from '../../../../src/planner/functions/builtin-registry.js';
import type { AggregateFunctionDefinition } from '../../../../src/planner/functions/function-definition.js';
import { DataTypes as T } from '../../../../src/types/data-types.js';
import type { LogicalType } from '../../../../src/types/logical-type.js';
import { typeToString } from '../../../../src/types/type-to-string.js';

// JSON_OBJECTAGG / JSON_ARRAYAGG. Expected values from Flink's JsonAggregationFunctionsITCase
// (flink-table-planner/src/test/java/.../functions/JsonAggregationFunctionsITCase.java), spec named per case.
const registry = createBuiltinRegistry();

function agg(name: string, types: LogicalType[]) {
  const def = registry.lookup(name) as AggregateFunctionDefinition;
  const f = def.create(types, { distinct: false });
  const acc = f.createAccumulator();
  return {
    type: typeToString(def.inferType(types, { distinct: false })),
    add: (...vs: unknown[][]) => { for (const v of vs) f.accumulate(acc, ...v); },
    remove: (...vs: unknown[][]) => { for (const v of vs) f.retract!(acc, ...v); },
    value: () => f.getValue(acc),
  };
}

describe('JSON aggregate functions', () => {
  it('JSON_OBJECTAGG keeps NULL values by default ("Basic Aggregation") and omits them with ABSENT ON NULL ("Omits NULLs")', () => {
    const a = agg('JSON_OBJECTAGG_NULL_ON_NULL', [T.STRING(), T.INT()]);
    a.add(['A', 1], ['B', null], ['C', 3]);
    expect(a.value()).toBe('{"A":1,"B":null,"C":3}');
    expect(a.type).toBe('STRING NOT NULL');
    const b = agg('JSON_OBJECTAGG_ABSENT_ON_NULL', [T.STRING(), T.INT()]);
    b.add(['A', 1], ['B', null], ['C', 3]);
    expect(b.value()).toBe('{"A":1,"C":3}');
  });

  it('JSON_OBJECTAGG retracts a key ("Retractions") and is {} for no rows', () => {
    const a = agg('JSON_OBJECTAGG_NULL_ON_NULL', [T.STRING(), T.INT()]);
    expect(a.value()).toBe('{}');
    a.add(['A', 1], ['B', 2], ['C', 3]);
    a.remove(['B', 2]);
    expect(a.value()).toBe('{"A":1,"C":3}');
  });

  it('JSON_ARRAYAGG omits NULLs by default ("Basic Aggregation"), keeps them with NULL ON NULL ("Keeps NULLs"), retracts ("Retractions")', () => {
    // A character string operand is the value's JSON text: the optimizer passes JSON_STRING(value), as Flink plans it.
    const a = agg('JSON_ARRAYAGG_ABSENT_ON_NULL', [T.STRING()]);
    a.add(['"A"'], [null], ['"C"']);
    expect(a.value()).toBe('["A","C"]');
    const b = agg('JSON_ARRAYAGG_NULL_ON_NULL', [T.STRING()]);
    b.add(['"A"'], [null], ['"C"']);
    expect(b.value()).toBe('["A",null,"C"]');
    const c = agg('JSON_ARRAYAGG_ABSENT_ON_NULL', [T.INT()]);
    c.add([1], [2], [3]);
    c.remove([2]);
    expect(c.value()).toBe('[1,3]');
    expect(c.type).toBe('STRING NOT NULL');
  });

  it('JSON_OBJECTAGG writes keys in order, as Flink\'s serializer (ORDER_MAP_ENTRIES_BY_KEYS)', () => {
    const a = agg('JSON_OBJECTAGG_NULL_ON_NULL', [T.STRING(), T.INT()]);
    a.add(['b', 1], ['a', 2]);
    expect(a.value()).toBe('{"a":2,"b":1}');
  });

  it('refuses a NULL object key', () => {
    const a = agg('JSON_OBJECTAGG_NULL_ON_NULL', [T.STRING(), T.INT()]);
    expect(() => a.add([null, 1])).toThrow(/key must not be NULL/);
  });
});

describe('JSON aggregates in SQL', () => {
  let env: TableEnvironment | undefined;
  afterEach(async () => {
    await env?.close();
  });

  it('binds JSON_OBJECTAGG(k VALUE v) and JSON_ARRAYAGG(v) in a GROUP BY ("Group Aggregation")', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    const result = await env.executeSql(
      "SELECT f0, JSON_OBJECTAGG(f1 VALUE f2) AS o, JSON_ARRAYAGG(f1) AS a FROM (VALUES (1, 'A', 0), (1, 'B', 0), (2, 'A', 0), (2, 'C', 0)) AS t(f0, f1, f2) GROUP BY f0",
    );
    const out: unknown[][] = [];
    for await (const r of result.collect()) out.push([...r.fields]);
    out.sort((x, y) => (x[0] as number) - (y[0] as number));
    expect(out).toEqual([
      [1, '{"A":0,"B":0}', '["A","B"]'],
      [2, '{"A":0,"C":0}', '["A","C"]'],
    ]);
  });

  async function rows(sql: string): Promise<unknown[][]> {
    await env?.close();
    env = TableEnvironment.create({ mode: 'batch' });
    const result = await env.executeSql(sql);
    const out: unknown[][] = [];
    for await (const r of result.collect()) out.push([...r.fields]);
    return out;
  }

  // Answers of a real Flink 2.3: the aggregated value is written as JSON_STRING writes it (Flink wraps the argument in
  // JSON_STRING), so a JSON_OBJECT / JSON_ARRAY value is embedded raw and a TIMESTAMP is ISO text.
  it('embeds a JSON_OBJECT / JSON_ARRAY value raw, as JSON, and a string value as a JSON string', async () => {
    expect(await rows("SELECT JSON_ARRAYAGG(JSON_OBJECT(KEY 'k' VALUE f0)) FROM (VALUES ('a'), ('b')) AS T(f0)")).toEqual([['[{"k":"a"},{"k":"b"}]']]);
    expect(await rows("SELECT JSON_OBJECTAGG(f1 VALUE JSON_ARRAY(f0)) FROM (VALUES ('x', 'k1'), ('y', 'k2')) AS T(f0, f1)")).toEqual([['{"k1":["x"],"k2":["y"]}']]);
    expect(await rows(`SELECT JSON_ARRAYAGG(f0) FROM (VALUES ('{"a": 1}'), ('[1, 2]')) AS T(f0)`)).toEqual([['["{\\"a\\": 1}","[1, 2]"]']]);
  });

  it('writes values as JSON_STRING does: ISO timestamps, nested DECIMAL numbers, FLOAT widened', async () => {
    expect(await rows("SELECT JSON_ARRAYAGG(TIMESTAMP '1990-06-02 13:37:42.001') FROM (VALUES (1)) AS T(f0)")).toEqual([['["1990-06-02T13:37:42.001"]']]);
    expect(await rows('SELECT JSON_ARRAYAGG(TO_TIMESTAMP_LTZ(644333862001, 3)) FROM (VALUES (1)) AS T(f0)')).toEqual([['["1990-06-02T13:37:42.001Z"]']]);
    expect(await rows('SELECT JSON_ARRAYAGG(ROW(1, CAST(1.50 AS DECIMAL(5, 2)))) FROM (VALUES (1)) AS T(f0)')).toEqual([['[{"EXPR$0":1,"EXPR$1":1.50}]']]);
    expect(await rows("SELECT JSON_OBJECTAGG(KEY 'k' VALUE CAST(0.1 AS FLOAT)) FROM (VALUES (1)) AS T(f0)")).toEqual([['{"k":0.10000000149011612}']]);
  });

  it('reads JSON_STRING(value), added by the optimizer as in Flink 2.3\'s plan (its AST keeps the value)', async () => {
    const plan = (await rows("EXPLAIN SELECT k, JSON_ARRAYAGG(v) FROM (VALUES ('a', 1)) AS T(k, v) GROUP BY k"))[0]![0] as string;
    // Flink 2.3 prints, for a table s(k, v): LogicalAggregate(group=[{0}], EXPR$1=[JSON_ARRAYAGG_ABSENT_ON_NULL($1)])
    // over the scan, and Calc(select=[k, v, JSON_STRING(v) AS $f3 ...]) below the optimized SortAggregate.
    const [ast, optimized] = plan.split('== Optimized Physical Plan ==');
    expect(ast).toContain('EXPR$1=[JSON_ARRAYAGG_ABSENT_ON_NULL($1)]');
    expect(ast).not.toContain('JSON_STRING');
    expect(optimized).toMatch(/JSON_ARRAYAGG_ABSENT_ON_NULL\(\$f2\)[\s\S]*JSON_STRING\(EXPR\$1\) AS \$f2/);
  });

  it('refuses JSON(text) and a DATE value, as Flink 2.3 does', async () => {
    await expect(rows(`SELECT JSON_ARRAYAGG(JSON(f0)) FROM (VALUES ('{"a": 1}')) AS T(f0)`)).rejects.toThrow('The JSON() function is currently only supported inside JSON_ARRAY()');
    await expect(rows(`SELECT JSON_OBJECTAGG(f1 VALUE JSON(f0)) FROM (VALUES ('{"a": 1}', 'k')) AS T(f0, f1)`)).rejects.toThrow('The JSON() function');
    await expect(rows("SELECT JSON_ARRAYAGG(DATE '2024-03-05') FROM (VALUES (1)) AS T(f0)")).rejects.toThrow('cannot be converted into JSON');
  });
});
