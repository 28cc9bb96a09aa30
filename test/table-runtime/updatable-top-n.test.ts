import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import { formatValueJava } from '../../src/types/values/format-value.js';
// Plain ESM module shared with the differential scripts.
import { runOnSluice } from '../differential/compare.mjs';

// A streaming Top-N over a GROUP BY whose order key only moves towards the top (COUNT / MAX / a SUM of positive
// values descending, MIN ascending) takes each update as one change (Flink's UpdateFastStrategy:
// UpdatableTopNFunction, FastTop1Function for a Top-1). Each expected changelog, in its order, is what Apache Flink
// 2.3.0 emitted for the same statement over the same file (scripts/flink-reference.sh, parallelism 1).
const DATA = "a,5\nb,3\nc,4\nc,1\na,2\nb,9\nb,1\nd,7\nd,2\nd,8\na,6\na,1\ne,9\nc,9\n";

describe('update-fast Top-N over a GROUP BY (UpdatableTopNFunction / FastTop1Function)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-updatable-top-n-'));
  writeFileSync(join(dir, 'data.csv'), DATA);
  let env: TableEnvironment | undefined;
  afterAll(async () => {
    await env?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  async function changelog(sql: string): Promise<unknown> {
    if (env === undefined) {
      env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false });
      await env.executeSql(`CREATE TABLE Upd (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')`);
    }
    return runOnSluice(env, sql, { formatValueJava, rowKindShortString });
  }

  it('renumbers the top 2 by COUNT as a row overtakes another, and takes back a row that left the top as a new row', async () => {
    expect(await changelog('SELECT k, c, rn FROM (SELECT k, c, ROW_NUMBER() OVER (ORDER BY c DESC) AS rn FROM (SELECT k, COUNT(*) AS c FROM Upd GROUP BY k)) WHERE rn <= 2')).toEqual({
      rows: [
        '+I\ta\t1\t1',
        '+I\tb\t1\t2',
        '-U\ta\t1\t1',
        '+U\tc\t2\t1',
        '-U\tb\t1\t2',
        '+U\ta\t1\t2',
        '-U\ta\t1\t2',
        '+U\ta\t2\t2',
        '-U\tc\t2\t1',
        '+U\tb\t3\t1',
        '-U\ta\t2\t2',
        '+U\tc\t2\t2',
        '-U\tc\t2\t2',
        '+U\td\t3\t2',
        '-U\tb\t3\t1',
        '+U\ta\t4\t1',
        '-U\td\t3\t2',
        '+U\tb\t3\t2',
      ],
    });
  });

  it('without the rank number, sends -U / +U of an updated top row and -D / +I when a new row enters', async () => {
    expect(await changelog('SELECT k, c FROM (SELECT k, c, ROW_NUMBER() OVER (ORDER BY c DESC) AS rn FROM (SELECT k, COUNT(*) AS c FROM Upd GROUP BY k)) WHERE rn <= 2')).toEqual({
      rows: [
        '+I\ta\t1',
        '+I\tb\t1',
        '-D\tb\t1',
        '+I\tc\t2',
        '-U\ta\t1',
        '+U\ta\t2',
        '-D\ta\t2',
        '+I\tb\t3',
        '-D\tc\t2',
        '+I\td\t3',
        '-D\td\t3',
        '+I\ta\t4',
      ],
    });
  });

  it('emits only rank 2 for rn = 2 (an offset), the rows moving through it', async () => {
    expect(await changelog('SELECT k, c FROM (SELECT k, c, ROW_NUMBER() OVER (ORDER BY c DESC) AS rn FROM (SELECT k, COUNT(*) AS c FROM Upd GROUP BY k)) WHERE rn = 2')).toEqual({
      rows: [
        '+I\tb\t1',
        '-U\tb\t1',
        '+U\ta\t1',
        '-U\ta\t1',
        '+U\ta\t2',
        '-U\ta\t2',
        '+U\tc\t2',
        '-U\tc\t2',
        '+U\td\t3',
        '-U\td\t3',
        '+U\tb\t3',
      ],
    });
  });

  it('re-sends a top row whose MAX stays but whose other columns change, at the same rank', async () => {
    expect(await changelog('SELECT k, mx, cnt, rn FROM (SELECT k, mx, cnt, ROW_NUMBER() OVER (ORDER BY mx DESC) AS rn FROM (SELECT k, MAX(v) AS mx, COUNT(*) AS cnt FROM Upd GROUP BY k)) WHERE rn <= 3')).toEqual({
      rows: [
        '+I\ta\t5\t1\t1',
        '+I\tb\t3\t1\t2',
        '-U\tb\t3\t1\t2',
        '+U\tc\t4\t1\t2',
        '+I\tb\t3\t1\t3',
        '-U\tc\t4\t1\t2',
        '+U\tc\t4\t2\t2',
        '-U\ta\t5\t1\t1',
        '+U\ta\t5\t2\t1',
        '-U\ta\t5\t2\t1',
        '-U\tb\t3\t1\t3',
        '+U\tb\t9\t2\t1',
        '-U\tc\t4\t2\t2',
        '+U\ta\t5\t2\t2',
        '+U\tc\t4\t2\t3',
        '-U\tb\t9\t2\t1',
        '+U\tb\t9\t3\t1',
        '-U\ta\t5\t2\t2',
        '+U\td\t7\t1\t2',
        '-U\tc\t4\t2\t3',
        '+U\ta\t5\t2\t3',
        '-U\td\t7\t1\t2',
        '+U\td\t7\t2\t2',
        '-U\td\t7\t2\t2',
        '+U\td\t8\t3\t2',
        '-U\ta\t5\t2\t3',
        '+U\ta\t6\t3\t3',
        '-U\ta\t6\t3\t3',
        '+U\ta\t6\t4\t3',
        '-U\td\t8\t3\t2',
        '+U\te\t9\t1\t2',
        '-U\ta\t6\t4\t3',
        '+U\td\t8\t3\t3',
        '-U\td\t8\t3\t3',
        '+U\tc\t9\t3\t3',
      ],
    });
  });

  it('keeps a Top-1 by MIN ascending as FastTop1Function: only a better row replaces it', async () => {
    expect(await changelog('SELECT k, mn, cnt FROM (SELECT k, mn, cnt, ROW_NUMBER() OVER (ORDER BY mn ASC) AS rn FROM (SELECT k, MIN(v) AS mn, COUNT(*) AS cnt FROM Upd GROUP BY k)) WHERE rn <= 1')).toEqual({
      rows: [
        '+I\ta\t5\t1',
        '-U\ta\t5\t1',
        '+U\tb\t3\t1',
        '-U\tb\t3\t1',
        '+U\tc\t1\t2',
      ],
    });
  });

  it('orders by a SUM of values a filter keeps above zero', async () => {
    expect(await changelog('SELECT k, s FROM (SELECT k, s, ROW_NUMBER() OVER (ORDER BY s DESC) AS rn FROM (SELECT k, SUM(v) AS s FROM Upd WHERE v > 0 GROUP BY k)) WHERE rn <= 2')).toEqual({
      rows: [
        '+I\ta\t5',
        '+I\tb\t3',
        '-D\tb\t3',
        '+I\tc\t4',
        '-U\tc\t4',
        '+U\tc\t5',
        '-U\ta\t5',
        '+U\ta\t7',
        '-D\tc\t5',
        '+I\tb\t12',
        '-U\tb\t12',
        '+U\tb\t13',
        '-D\ta\t7',
        '+I\td\t9',
        '-U\td\t9',
        '+U\td\t17',
        '-D\tb\t13',
        '+I\ta\t14',
      ],
    });
  });

  it('over a Top-N of an insert-only input, by its partition key and rank number (UpdateFastStrategy[0,2])', async () => {
    expect(await changelog('SELECT * FROM (SELECT k, v, rn, ROW_NUMBER() OVER (ORDER BY v DESC) AS rn2 FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM Upd) WHERE rn <= 2) WHERE rn2 <= 3')).toEqual({
      rows: [
        '+I\ta\t5\t1\t1',
        '+I\tb\t3\t1\t2',
        '-U\tb\t3\t1\t2',
        '+U\tc\t4\t1\t2',
        '+I\tb\t3\t1\t3',
        '-U\ta\t5\t1\t1',
        '-U\tb\t3\t1\t3',
        '+U\tb\t9\t1\t1',
        '-U\tc\t4\t1\t2',
        '+U\ta\t5\t1\t2',
        '+U\tc\t4\t1\t3',
        '-U\ta\t5\t1\t2',
        '+U\td\t7\t1\t2',
        '-U\tc\t4\t1\t3',
        '+U\ta\t5\t1\t3',
        '-U\td\t7\t1\t2',
        '+U\td\t8\t1\t2',
        '-U\ta\t5\t1\t3',
        '+U\td\t7\t2\t3',
        '-U\td\t8\t1\t2',
        '+U\te\t9\t1\t2',
        '-U\td\t7\t2\t3',
        '+U\td\t8\t1\t3',
        '-U\td\t8\t1\t3',
        '+U\tc\t9\t1\t3',
      ],
    });
  });

  it('over an update-fast Top-N over a GROUP BY (the nested RankITCase shape)', async () => {
    expect(await changelog('SELECT * FROM (SELECT k, c, rn, ROW_NUMBER() OVER (ORDER BY c DESC) AS rn2 FROM (SELECT k, c, ROW_NUMBER() OVER (PARTITION BY k ORDER BY c DESC) AS rn FROM (SELECT k, COUNT(*) AS c FROM Upd GROUP BY k)) WHERE rn <= 3) WHERE rn2 <= 2')).toEqual({
      rows: [
        '+I\ta\t1\t1\t1',
        '+I\tb\t1\t1\t2',
        '-U\ta\t1\t1\t1',
        '+U\tc\t2\t1\t1',
        '-U\tb\t1\t1\t2',
        '+U\ta\t1\t1\t2',
        '-U\ta\t1\t1\t2',
        '+U\ta\t2\t1\t2',
        '-U\tc\t2\t1\t1',
        '+U\tb\t3\t1\t1',
        '-U\ta\t2\t1\t2',
        '+U\tc\t2\t1\t2',
        '-U\tc\t2\t1\t2',
        '+U\td\t3\t1\t2',
        '-U\tb\t3\t1\t1',
        '+U\ta\t4\t1\t1',
        '-U\td\t3\t1\t2',
        '+U\tb\t3\t1\t2',
      ],
    });
  });
});
