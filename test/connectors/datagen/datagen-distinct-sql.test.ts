import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

describe('datagen random strings through SQL', () => {
  it('gives practically one distinct key per row, so key counts and state sizes are what the row count says', async () => {
    const env = TableEnvironment.create({ mode: 'batch' });
    try {
      await env.executeSql(`CREATE TEMPORARY TABLE gen (s STRING, d STRING) WITH (
        'connector' = 'datagen', 'number-of-rows' = '50000', 'rows-per-second' = '100000000', 'fields.s.length' = '10')`);
      const out: unknown[][] = [];
      for await (const r of (await env.executeSql('SELECT COUNT(DISTINCT s), COUNT(DISTINCT d), MIN(CHAR_LENGTH(d)), MAX(CHAR_LENGTH(d)) FROM gen')).collect()) out.push(r.fields);
      const [distinctS, distinctD, minLen, maxLen] = out[0]!;
      expect(Number(distinctS)).toBeGreaterThanOrEqual(49_999);
      expect(Number(distinctD)).toBe(50_000);
      // STRING without 'length' gets Flink's default of 100 characters.
      expect([minLen, maxLen]).toEqual([100, 100]);
    } finally {
      await env.close();
    }
  });
});
