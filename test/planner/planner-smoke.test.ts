import { describe, expect, it } from 'vitest';
import { formatRows, materialize, runQuery, TestContext } from './harness.js';

describe('planQuery over VALUES', () => {
  it('projects and filters', async () => {
    const ctx = new TestContext('streaming');
    const r = await runQuery("SELECT a + 1 AS b, UPPER(s) FROM (VALUES (1, 'x'), (2, 'y'), (3, 'z')) AS t(a, s) WHERE a > 1", ctx);
    expect(r.names).toEqual(['b', 'EXPR$1']);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[3, Y]', '+I[4, Z]']);
  });

  it('aggregates with retraction in streaming', async () => {
    const ctx = new TestContext('streaming');
    const r = await runQuery("SELECT k, COUNT(*) AS c, SUM(v) FROM (VALUES ('a', 1), ('b', 2), ('a', 3)) AS t(k, v) GROUP BY k", ctx);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[a, 1, 1]', '+I[b, 1, 2]', '-U[a, 1, 1]', '+U[a, 2, 4]']);
    expect(materialize(r.rows, r.types)).toEqual(['[a, 2, 4]', '[b, 1, 2]']);
  });

  it('aggregates to final rows in batch', async () => {
    const ctx = new TestContext('batch');
    const r = await runQuery("SELECT k, COUNT(*) AS c, AVG(v) FROM (VALUES ('a', 1), ('b', 2), ('a', 4)) AS t(k, v) GROUP BY k", ctx);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[a, 2, 2]', '+I[b, 1, 2]']);
  });
});
