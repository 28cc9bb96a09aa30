import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

// DECIMAL result types as a real Flink 2.3.0 derives them: each expected list is the `DESCRIBE` of the same view
// run with scripts/flink-reference.sh (name, type, nullable). The values of `src` do not matter, only its types.
const SRC =
  'CREATE VIEW src AS SELECT * FROM (VALUES (CAST(1.5 AS DECIMAL(10,2)), CAST(2 AS DECIMAL(38,0)), CAST(1.5 AS DECIMAL(38,18)), ' +
  'CAST(0.5 AS DECIMAL(3,3)), CAST(7 AS DECIMAL(5,0)), 3, CAST(3 AS BIGINT), CAST(1 AS DECIMAL(38,30)), CAST(1.5 AS DOUBLE), ' +
  'CAST(2 AS SMALLINT), CAST(2 AS TINYINT))) AS t(d, d38, dl, ds, d0, i, b, dh, x, si, ti)';

let env: TableEnvironment | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function describeView(select: string): Promise<string[]> {
  env = TableEnvironment.create({ mode: 'batch' });
  await env.executeSql(SRC);
  await env.executeSql(`CREATE VIEW v AS ${select}`);
  const out: string[] = [];
  for await (const r of (await env.executeSql('DESCRIBE v')).collect()) out.push(`${String(r.fields[0])} ${String(r.fields[1])} ${r.fields[2] === true ? 'NULL' : 'NOT NULL'}`);
  return out;
}

describe('DECIMAL result types, as Flink 2.3 derives them', () => {
  it('UNION ALL meets DECIMAL(10, 2) and DECIMAL(38, 0) at DECIMAL(38, 0)', async () => {
    expect(await describeView('SELECT d AS c FROM src UNION ALL SELECT d38 FROM src')).toEqual(['c DECIMAL(38, 0) NOT NULL']);
  });

  it('CASE, COALESCE, GREATEST and IF use the least-restrictive type; NULLIF keeps its first operand type', async () => {
    const sql =
      'SELECT CASE WHEN i = 3 THEN d ELSE d38 END AS c_case, COALESCE(d, d38) AS c_coal, COALESCE(dl, d0) AS c_coal2, COALESCE(dh, b) AS c_dh_b, ' +
      'COALESCE(dh, i) AS c_dh_i, GREATEST(d, d38) AS c_greatest, IF(i = 3, d, d38) AS c_if, NULLIF(d, d38) AS c_nullif, ' +
      'CASE WHEN i = 3 THEN dl ELSE dh END AS c_dl_dh, COALESCE(ds, d) AS c_ds_d FROM src';
    expect(await describeView(sql)).toEqual([
      'c_case DECIMAL(38, 0) NOT NULL',
      'c_coal DECIMAL(38, 0) NOT NULL',
      'c_coal2 DECIMAL(38, 18) NOT NULL',
      'c_dh_b DECIMAL(38, 19) NOT NULL',
      'c_dh_i DECIMAL(38, 28) NOT NULL',
      'c_greatest DECIMAL(38, 0) NOT NULL',
      'c_if DECIMAL(38, 0) NOT NULL',
      'c_nullif DECIMAL(10, 2) NULL',
      'c_dl_dh DECIMAL(38, 18) NOT NULL',
      'c_ds_d DECIMAL(11, 3) NOT NULL',
    ]);
  });

  it('FLOOR and CEIL keep the precision; ROUND and TRUNCATE add a digit for the carry', async () => {
    const sql =
      'SELECT CEIL(d) AS ceil_d, FLOOR(dl) AS floor_dl, CEIL(ds) AS ceil_ds, FLOOR(d0) AS floor_d0, ROUND(dl, 1) AS r_dl_1, ROUND(dl, 0) AS r_dl_0, ' +
      'ROUND(dl, -2) AS r_dl_m2, ROUND(ds, 1) AS r_ds_1, ROUND(d) AS r_d, TRUNCATE(dl, 2) AS t_dl_2, TRUNCATE(d) AS t_d, ROUND(dl, 20) AS r_dl_20, ' +
      'TRUNCATE(dl, -2) AS t_dl_m2, ROUND(d0, -1) AS r_d0_m1 FROM src';
    expect(await describeView(sql)).toEqual([
      'ceil_d DECIMAL(10, 0) NOT NULL',
      'floor_dl DECIMAL(38, 0) NOT NULL',
      'ceil_ds DECIMAL(3, 0) NOT NULL',
      'floor_d0 DECIMAL(5, 0) NOT NULL',
      'r_dl_1 DECIMAL(22, 1) NOT NULL',
      'r_dl_0 DECIMAL(21, 0) NOT NULL',
      'r_dl_m2 DECIMAL(21, 0) NOT NULL',
      'r_ds_1 DECIMAL(2, 1) NOT NULL',
      'r_d DECIMAL(9, 0) NOT NULL',
      't_dl_2 DECIMAL(23, 2) NOT NULL',
      't_d DECIMAL(9, 0) NOT NULL',
      'r_dl_20 DECIMAL(38, 18) NOT NULL',
      't_dl_m2 DECIMAL(21, 0) NOT NULL',
      'r_d0_m1 DECIMAL(6, 0) NOT NULL',
    ]);
  });

  it('arithmetic counts every digit a literal is written with (0.5 is DECIMAL(2, 1))', async () => {
    const sql =
      'SELECT d0 / 2 AS a1, d / 0.5 AS a2, dl / 0.5 AS a3, d * 0.5 AS a4, i / 0.5 AS a5, d + 1 AS a6, d0 / i AS a7, ABS(d) AS a8, -d AS a9, ' +
      'MOD(d, 3) AS a10, d % d0 AS a11, (FLOOR(d0) / -4) / 0.5 AS a12, d - ds AS a13, b * d AS a14 FROM src';
    expect(await describeView(sql)).toEqual([
      'a1 DECIMAL(16, 11) NOT NULL',
      'a2 DECIMAL(15, 6) NOT NULL',
      'a3 DECIMAL(38, 17) NOT NULL',
      'a4 DECIMAL(13, 3) NOT NULL',
      'a5 DECIMAL(17, 6) NOT NULL',
      'a6 DECIMAL(13, 2) NOT NULL',
      'a7 DECIMAL(16, 11) NOT NULL',
      'a8 DECIMAL(10, 2) NOT NULL',
      'a9 DECIMAL(10, 2) NOT NULL',
      'a10 DECIMAL(10, 2) NOT NULL',
      'a11 DECIMAL(7, 2) NOT NULL',
      'a12 DECIMAL(20, 14) NOT NULL',
      'a13 DECIMAL(12, 3) NOT NULL',
      'a14 DECIMAL(30, 2) NOT NULL',
    ]);
  });

  it('functions and literals mixing DECIMALs with other numbers', async () => {
    const sql =
      'SELECT SIGN(d) AS f1, MOD(i, d) AS f2, POWER(d, 2) AS f3, GREATEST(i, d) AS f4, LEAST(d, x) AS f5, COALESCE(d, 0) AS f7, ' +
      'CASE WHEN i = 3 THEN dl END AS f8, d + x AS f9, TRUNCATE(dl) AS f10, ROUND(i, -1) AS f11, ROUND(1.25, 1) AS f12, CEIL(1.5) AS f13, ' +
      'FLOOR(x) AS f14, ROUND(b, 2) AS f15, d * si AS f16, ds / ti AS f17, -0.000001 AS f18, 1. AS f19, 100.0 AS f20, COALESCE(ds, 0.5) AS f21, ' +
      'CASE WHEN i = 3 THEN 1 ELSE 0.5 END AS f22, d0 * 1.00 AS f23, MOD(dl, 7) AS f24, MOD(b, d0) AS f25, ABS(dl) AS f26 FROM src';
    expect(await describeView(sql)).toEqual([
      'f1 DECIMAL(10, 2) NOT NULL',
      'f2 DECIMAL(10, 2) NOT NULL',
      'f3 DOUBLE NOT NULL',
      'f4 DECIMAL(12, 2) NOT NULL',
      'f5 DOUBLE NOT NULL',
      'f7 DECIMAL(12, 2) NOT NULL',
      'f8 DECIMAL(38, 18) NULL',
      'f9 DOUBLE NOT NULL',
      'f10 DECIMAL(21, 0) NOT NULL',
      'f11 INT NOT NULL',
      'f12 DECIMAL(3, 1) NOT NULL',
      'f13 DECIMAL(2, 0) NOT NULL',
      'f14 DOUBLE NOT NULL',
      'f15 BIGINT NOT NULL',
      'f16 DECIMAL(16, 2) NOT NULL',
      'f17 DECIMAL(7, 7) NOT NULL',
      'f18 DECIMAL(7, 6) NOT NULL',
      'f19 INT NOT NULL',
      'f20 DECIMAL(4, 1) NOT NULL',
      'f21 DECIMAL(4, 3) NOT NULL',
      'f22 DECIMAL(11, 1) NOT NULL',
      'f23 DECIMAL(9, 2) NOT NULL',
      'f24 DECIMAL(28, 18) NOT NULL',
      'f25 DECIMAL(5, 0) NOT NULL',
      'f26 DECIMAL(38, 18) NOT NULL',
    ]);
  });

  it('aggregates, set operations and collections', async () => {
    expect(
      await describeView('SELECT SUM(d) AS s1, AVG(d0) AS s2, MIN(dl) AS s3, MAX(ds) AS s4, AVG(dl) AS s6, SUM(i * d) AS s7, COUNT(d) AS s8 FROM src GROUP BY d, ds'),
    ).toEqual([
      's1 DECIMAL(38, 2) NOT NULL',
      's2 DECIMAL(38, 6) NOT NULL',
      's3 DECIMAL(38, 18) NOT NULL',
      's4 DECIMAL(3, 3) NOT NULL',
      's6 DECIMAL(38, 18) NOT NULL',
      's7 DECIMAL(38, 2) NOT NULL',
      's8 BIGINT NOT NULL',
    ]);
    await env?.close();
    expect(await describeView('SELECT d AS c FROM src UNION SELECT i FROM src UNION SELECT ds FROM src')).toEqual(['c DECIMAL(13, 3) NOT NULL']);
    await env?.close();
    expect(await describeView('SELECT d AS c FROM src UNION SELECT x FROM src')).toEqual(['c DOUBLE NOT NULL']);
    await env?.close();
    expect(await describeView('SELECT ARRAY[d, d38] AS a1, ARRAY[ds, dl] AS a2, MAP[d, ds] AS m1 FROM src')).toEqual([
      'a1 ARRAY<DECIMAL(38, 0) NOT NULL> NOT NULL',
      'a2 ARRAY<DECIMAL(38, 18) NOT NULL> NOT NULL',
      'm1 MAP<DECIMAL(10, 2) NOT NULL, DECIMAL(3, 3) NOT NULL> NOT NULL',
    ]);
  });
});
