// MATCH_RECOGNIZE end to end: the Flink docs' examples (docs/content/docs/dev/table/sql/queries/match_recognize.md,
// "Pattern Recognition") over a csv table, with the rows Flink's docs print as the expected results.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

const TICKER = [
  ['10:00:00', 12, 1],
  ['10:00:01', 17, 2],
  ['10:00:02', 19, 1],
  ['10:00:03', 21, 3],
  ['10:00:04', 25, 2],
  ['10:00:05', 18, 1],
  ['10:00:06', 15, 1],
  ['10:00:07', 14, 2],
  ['10:00:08', 24, 2],
  ['10:00:09', 25, 2],
  ['10:00:10', 19, 1],
] as const;

async function rows(env: TableEnvironment, sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r.fields.map((f) => (typeof f === 'number' && f > 1e12 ? new Date(f).toISOString().slice(11, 19) : String(f))).join(','));
  return out;
}

async function tickerEnv(mode: 'streaming' | 'batch', data: readonly (readonly [string, number, number])[], symbol = 'ACME'): Promise<TableEnvironment> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-mr-'));
  mkdirSync(join(dir, 'in'));
  writeFileSync(join(dir, 'in', 'in.csv'), data.map(([t, p, x]) => `${symbol},2011-04-01 ${t},${p},${x}\n`).join(''));
  const env = TableEnvironment.create({ mode });
  const wm = mode === 'streaming' ? ', WATERMARK FOR rowtime AS rowtime' : '';
  await (
    await env.executeSql(
      `CREATE TABLE Ticker (symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT${wm}) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'in')}', 'format' = 'csv')`,
    )
  ).await();
  return env;
}

describe('MATCH_RECOGNIZE', () => {
  let env: TableEnvironment | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  const TICKER_QUERY = `SELECT *
FROM Ticker
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            START_ROW.rowtime AS start_tstamp,
            LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
            LAST(PRICE_UP.rowtime) AS end_tstamp
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST PRICE_UP
        PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
        DEFINE
            PRICE_DOWN AS
                (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                    PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
            PRICE_UP AS
                PRICE_UP.price > LAST(PRICE_DOWN.price, 1)
    ) MR`;

  for (const mode of ['streaming', 'batch'] as const) {
    it(`finds the docs' falling-price period of the ticker (${mode})`, async () => {
      env = await tickerEnv(mode, TICKER);
      expect(await rows(env, TICKER_QUERY)).toEqual(['ACME,10:00:04,10:00:07,10:00:08']);
    });
  }
});
