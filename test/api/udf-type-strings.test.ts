import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { ValidationError } from '../../src/errors/sluice-error.js';
import { DataTypes } from '../../src/types/data-types.js';
import type { Row } from '../../src/types/row.js';

let env: TableEnvironment;
afterEach(async () => {
  await env?.close();
});

async function rows(sql: string): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r);
  return out;
}

function moduleDir(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-udf-'));
  writeFileSync(join(dir, 'udf.mjs'), source);
  return dir;
}

describe('UDF types given as Flink type strings', () => {
  it('takes resultType and argumentTypes strings from a module', async () => {
    const dir = moduleDir(
      'export const plus = { eval: (a, b) => a + b, resultType: "BIGINT", argumentTypes: ["BIGINT", "BIGINT"] };\n' +
        'export const pair = { kind: "table", eval: function* (s) { yield [s, s.length]; }, resultType: "ROW<a STRING, b INT>" };\n' +
        'export const total = { createAccumulator: () => ({ n: 0n }), accumulate: (acc, v) => { acc.n += v; }, getValue: (acc) => acc.n, resultType: "BIGINT" };\n',
    );
    env = TableEnvironment.create({ mode: 'batch', baseDir: dir });
    await env.executeSql("CREATE TEMPORARY FUNCTION plus AS './udf.mjs#plus'");
    await env.executeSql("CREATE TEMPORARY FUNCTION pair AS './udf.mjs#pair'");
    await env.executeSql("CREATE TEMPORARY FUNCTION total AS './udf.mjs#total'");
    const r = await env.executeSql('SELECT plus(CAST(1 AS BIGINT), CAST(2 AS BIGINT)) AS p');
    expect(r.getResolvedSchema().columns.map((c) => c.type.kind)).toEqual(['BIGINT']);
    expect((await rows('SELECT plus(CAST(1 AS BIGINT), CAST(2 AS BIGINT)) AS p'))[0]!.fields).toEqual([3n]);
    expect((await rows("SELECT t.a, t.b FROM (VALUES ('hey')) AS v(s), LATERAL TABLE(pair(s)) AS t(a, b)"))[0]!.fields).toEqual(['hey', 3]);
    expect((await rows('SELECT total(n) AS t FROM (VALUES (CAST(4 AS BIGINT)), (CAST(5 AS BIGINT))) AS v(n)'))[0]!.fields).toEqual([9n]);
  });

  it('takes a type string in code as well as a DataTypes value', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    env.createTemporarySystemFunction('half', { eval: (x: number) => x / 2, resultType: 'DOUBLE NOT NULL', argumentTypes: [DataTypes.INT()] });
    const r = await env.executeSql('SELECT half(3) AS h');
    expect(r.getResolvedSchema().columns[0]!.type.kind).toBe('DOUBLE');
    expect((await rows('SELECT half(3) AS h'))[0]!.fields).toEqual([1.5]);
  });

  it('reports a wrong type string naming the module, the export and the string', async () => {
    const dir = moduleDir('export const bad = { eval: (x) => x, resultType: "BIGNT" };\n');
    env = TableEnvironment.create({ mode: 'batch', baseDir: dir });
    const error = await env.executeSql("CREATE TEMPORARY FUNCTION bad AS './udf.mjs#bad'").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain("Function 'bad' (export 'bad' of module './udf.mjs'): resultType 'BIGNT' is not a Flink type");
    expect((error as Error).message).toContain("'ROW<a INT, b STRING>'");
  });

  it('reports a type that is neither a string nor a DataTypes value, and an uncalled DataTypes function', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    expect(() => env.createTemporarySystemFunction('n', { eval: () => 1, resultType: 42 as never })).toThrow(/Function 'n': resultType is not a type: number 42/);
    expect(() => env.createTemporarySystemFunction('k', { eval: () => 1, resultType: { kind: 'BIGINTEGER' } as never })).toThrow(ValidationError);
    expect(() => env.createTemporarySystemFunction('f', { eval: () => 1, resultType: DataTypes.INT as never })).toThrow(/resultType is a function, not a type; call it/);
    expect(() => env.createTemporarySystemFunction('a', { eval: () => 1, argumentTypes: ['INT', 'NOPE'] })).toThrow(/argumentTypes\[1\] 'NOPE' is not a Flink type/);
    expect(() => env.createTemporarySystemFunction('x', 7 as never)).toThrow(/Function 'x': cannot register a number/);
  });
});
