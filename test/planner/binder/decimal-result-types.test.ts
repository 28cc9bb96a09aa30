import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

// DECIMAL result types as a real Flink 2.3.0 derives them: each expected list is the `DESCRIBE` of the same view
// run with scripts/flink-reference.sh (name, type, nullable). The values of `src` do not matter, only its types.
const SRC =
  'CREATE VIEW src AS SELECT * FROM (VALUES (CAST(1.5 AS DECIMAL(10,2)), CAST(2 AS DECIMAL(38,0)), CAST(1.5 AS DECIMAL(38,18)), ' +
  'CAST(0.5 AS DECIMAL(3,3)), CAST(7 AS DECIMAL(5,0)), 3, CAST(3 AS BIGINT), CAST(1 AS DECIMAL(38,30)))) AS t(d, d38, dl, ds, d0, i, b, dh)';

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
});
