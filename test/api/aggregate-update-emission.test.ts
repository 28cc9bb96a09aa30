import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { rowKindShortString } from '../../src/types/row-kind.js';

// When a streaming GROUP BY's result for a group does not change, Flink 2.3 sends no -U / +U pair, as long as no
// state TTL is set; "does not change" is its generated equaliser's, which reads DOUBLE fields as Java primitives:
// NaN differs from itself, so MIN stuck at NaN is re-emitted for every row. With a TTL the pair is always sent.
// Each expected changelog is what a real Flink 2.3.0 printed for the same statement (scripts/flink-reference.sh).
const VALUES =
  "CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES (1, CAST('NaN' AS DOUBLE)), (2, CAST(1.0 AS DOUBLE)), (3, CAST(2.0 AS DOUBLE)), (4, CAST(-0.0 AS DOUBLE)), (5, CAST(0.0 AS DOUBLE))) AS t(id, x)";

describe('a streaming aggregate emits an update when Flink does', () => {
  let env: TableEnvironment | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  async function changelog(sql: string, ttl?: string): Promise<string[]> {
    env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false, config: { 'parallelism.default': '1', ...(ttl ? { 'table.exec.state.ttl': ttl } : {}) } });
    await env.executeSql(VALUES);
    const out: string[] = [];
    for await (const r of (await env.executeSql(sql)).collect()) out.push([rowKindShortString(r.kind), ...r.fields.map(String)].join(' '));
    return out;
  }

  it('MIN that stays NaN: an update for every row (NaN is not equal to NaN)', async () => {
    expect(await changelog('SELECT MIN(x) FROM v')).toEqual(['+I NaN', '-U NaN', '+U NaN', '-U NaN', '+U NaN', '-U NaN', '+U NaN', '-U NaN', '+U NaN']);
  });

  it('MAX that stays 2.0: no update without a TTL, one per row with it', async () => {
    expect(await changelog('SELECT MAX(x) FROM v WHERE id > 1')).toEqual(['+I 1', '-U 1', '+U 2']);
    expect(await changelog('SELECT MAX(x) FROM v WHERE id > 1', '1 h')).toEqual(['+I 1', '-U 1', '+U 2', '-U 2', '+U 2', '-U 2', '+U 2']);
  });

  it('0.0 after -0.0 is no change (the two zeros are equal as doubles)', async () => {
    const log = await changelog('SELECT MIN(x) FROM v WHERE id > 1');
    expect(log).toHaveLength(3);
    expect(log.slice(0, 2)).toEqual(['+I 1', '-U 1']);
  });
});

describe('SELECT DISTINCT in streaming', () => {
  it('sends a NaN row once: the equality that suppresses updates reads the aggregates, not the group key', async () => {
    const env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false, config: { 'parallelism.default': '1' } });
    try {
      await env.executeSql(VALUES);
      const out: string[] = [];
      for await (const r of (await env.executeSql("SELECT DISTINCT CAST('NaN' AS DOUBLE) * x FROM v")).collect()) out.push(`${rowKindShortString(r.kind)} ${r.fields.map(String).join(' ')}`);
      expect(out).toEqual(['+I NaN']);
    } finally {
      await env.close();
    }
  });
});
