import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { variance, type VarianceKind } from '../../../src/table-runtime/aggregates/variance-aggregates.js';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { rowKindShortString } from '../../../src/types/row-kind.js';
import { formatValueJava } from '../../../src/types/values/format-value.js';
// Plain ESM module shared with the differential scripts.
import { runOnSluice } from '../../differential/compare.mjs';

// Every expected value below is what Apache Flink 2.3.0 answered (scripts/flink-reference.sh), not a reasoned one:
// Flink rewrites the variance family into its WELFORD_M2 aggregate and COUNT, so the last digits of each update
// are Welford's.

/** The value after each of `xs` is accumulated. */
function running(kind: VarianceKind, xs: readonly number[]): unknown[] {
  const f = variance(kind, T.DOUBLE());
  const acc = f.createAccumulator();
  return xs.map((x) => {
    f.accumulate(acc, x);
    return f.getValue(acc);
  });
}

describe('VAR_POP / VAR_SAMP / STDDEV_POP / STDDEV_SAMP', () => {
  const xs = [1, 1, 2, 2, 3, 3];

  it("gives Flink's digits in every intermediate update (AggregateITCase testMoments, testStdDev)", () => {
    expect(running('VAR_POP', xs)).toEqual([0, 0, 0.22222222222222224, 0.25, 0.5599999999999999, 0.6666666666666666]);
    expect(running('VAR_SAMP', xs)).toEqual([null, 0, 0.33333333333333337, 0.3333333333333333, 0.7, 0.8]);
    expect(running('STDDEV_POP', xs)).toEqual([0, 0, 0.4714045207910317, 0.5, 0.7483314773547882, 0.816496580927726]);
    expect(running('STDDEV_SAMP', xs)).toEqual([null, 0, 0.5773502691896258, 0.5773502691896257, 0.8366600265340756, 0.8944271909999159]);
  });

  it('turns the count / sum / sum-of-squares accumulator of an earlier checkpoint into Welford form', () => {
    const f = variance('VAR_POP', T.DOUBLE());
    const old = { n: 2, sum: 2, sumSq: 2 } as unknown as ReturnType<typeof f.createAccumulator>;
    f.accumulate(old, 2);
    expect(f.getValue(old)).toBeCloseTo(2 / 9, 15);
    expect(Object.keys(old).sort()).toEqual(['m2', 'mean', 'n']);
  });

  describe('over SQL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-variance-'));
    writeFileSync(join(dir, 'data.csv'), '1,1\n1,2\n2,1\n2,2\n3,1\n3,2\n');
    const ddl = `CREATE TABLE DoubleInt (f0 DOUBLE, f1 INT) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')`;
    const envs: TableEnvironment[] = [];
    afterAll(async () => {
      for (const e of envs) await e.close();
      rmSync(dir, { recursive: true, force: true });
    });
    async function run(mode: 'batch' | 'streaming', sql: string): Promise<unknown> {
      const env = TableEnvironment.create({ mode, discoverPackages: false });
      envs.push(env);
      await env.executeSql(ddl);
      return runOnSluice(env, sql, { formatValueJava, rowKindShortString });
    }

    it("retracts as Flink's WELFORD_M2 does, rounding errors included (streaming)", async () => {
      // The inner GROUP BY updates its sums, so the outer aggregate retracts each old one before adding the new.
      const sql = 'SELECT VAR_POP(s), VAR_SAMP(s), STDDEV_POP(s), STDDEV_SAMP(s) FROM (SELECT f1, SUM(f0) * 0.3 + f1 AS s FROM DoubleInt GROUP BY f1)';
      expect(await run('streaming', sql)).toEqual({
        rows: [
          '+I\t0.0\t\\N\t0.0\t\\N',
          '-U\t0.0\t\\N\t0.0\t\\N',
          '+U\t0.24999999999999994\t0.4999999999999999\t0.49999999999999994\t0.7071067811865475',
          '-U\t0.24999999999999994\t0.4999999999999999\t0.49999999999999994\t0.7071067811865475',
          '+U\t2.220446049250313E-16\t\\N\t1.4901161193847656E-8\t\\N',
          '-U\t2.220446049250313E-16\t\\N\t1.4901161193847656E-8\t\\N',
          '+U\t0.04000000000000005\t0.0800000000000001\t0.20000000000000012\t0.2828427124746192',
          '-U\t0.04000000000000005\t0.0800000000000001\t0.20000000000000012\t0.2828427124746192',
          '+U\t\\N\t\\N\t\\N\t\\N',
          '-U\t\\N\t\\N\t\\N\t\\N',
          '+U\t0.25000000000000033\t0.5000000000000007\t0.5000000000000003\t0.707106781186548',
          '-U\t0.25000000000000033\t0.5000000000000007\t0.5000000000000003\t0.707106781186548',
          '+U\t1.5543122344752192E-15\t\\N\t3.942476676500724E-8\t\\N',
          '-U\t1.5543122344752192E-15\t\\N\t3.942476676500724E-8\t\\N',
          '+U\t0.002500000000000748\t0.005000000000001496\t0.05000000000000748\t0.07071067811866533',
          '-U\t0.002500000000000748\t0.005000000000001496\t0.05000000000000748\t0.07071067811866533',
          '+U\t1.4432899320127035E-15\t\\N\t3.7990655851310376E-8\t\\N',
          '-U\t1.4432899320127035E-15\t\\N\t3.7990655851310376E-8\t\\N',
          '+U\t0.25000000000000083\t0.5000000000000017\t0.5000000000000008\t0.7071067811865487',
        ],
      });
    });

    it("emits an update whenever Flink's WELFORD_M2 or COUNT changes beneath, even from NULL to NULL (streaming)", async () => {
      const sql = 'SELECT VAR_POP(s), VAR_SAMP(s), STDDEV_POP(s), STDDEV_SAMP(s) FROM (SELECT f1, SUM(f0) * 0.7 AS s FROM DoubleInt GROUP BY f1)';
      expect(await run('streaming', sql)).toEqual({
        rows: [
          '+I\t0.0\t\\N\t0.0\t\\N',
          '-U\t0.0\t\\N\t0.0\t\\N',
          '+U\t0.0\t0.0\t0.0\t0.0',
          '-U\t0.0\t0.0\t0.0\t0.0',
          '+U\t0.0\t\\N\t0.0\t\\N',
          '-U\t0.0\t\\N\t0.0\t\\N',
          '+U\t0.4899999999999997\t0.9799999999999994\t0.6999999999999998\t0.9899494936611662',
          '-U\t0.4899999999999997\t0.9799999999999994\t0.6999999999999998\t0.9899494936611662',
          '+U\t\\N\t\\N\t\\N\t\\N',
          '-U\t\\N\t\\N\t\\N\t\\N',
          '+U\t\\N\t\\N\t\\N\t\\N',
          '-U\t\\N\t\\N\t\\N\t\\N',
          '+U\t\\N\t\\N\t\\N\t\\N',
          '-U\t\\N\t\\N\t\\N\t\\N',
          '+U\t1.1024999999999994\t2.2049999999999987\t1.0499999999999996\t1.4849242404917493',
          '-U\t1.1024999999999994\t2.2049999999999987\t1.0499999999999996\t1.4849242404917493',
          '+U\t\\N\t\\N\t\\N\t\\N',
          '-U\t\\N\t\\N\t\\N\t\\N',
          '+U\t\\N\t\\N\t\\N\t\\N',
        ],
      });
    });

    it('gives the same digits in batch mode', async () => {
      const sql = 'SELECT f1, VAR_POP(f0 * 0.1), VAR_SAMP(f0 * 0.1), STDDEV_POP(f0 * 0.1), STDDEV_SAMP(f0 * 0.1) FROM DoubleInt GROUP BY f1';
      const row = (k: number) => ['+I', k, '0.006666666666666668', '0.010000000000000002', '0.08164965809277261', '0.1'].join('\t');
      const out = (await run('batch', sql)) as { rows: string[] };
      expect([...out.rows].sort()).toEqual([row(1), row(2)]);
    });
  });
});
