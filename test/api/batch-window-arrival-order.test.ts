import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

// A batch HOP / CUMULATE window aggregate sees each window's rows in arrival order, as Flink's batch plan (a group
// aggregate over the windows' rows) does: MIN / MAX compare with < / >, so a NaN met first stays. Merging the
// window's slices newest first (the streaming layout, Flink's too) kept the newer slice's value instead.
// Answers of a real Flink 2.3 over these rows (test/differential/goldens/regressions.json has the table version).
const dir = mkdtempSync(join(tmpdir(), 'sluice-batch-window-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rows(sql: string): Promise<unknown[][]> {
  writeFileSync(join(dir, 'data.csv'), ['2024-02-29 23:48:30,NaN', '2024-02-29 23:50:30,-1.0', '2024-02-29 23:51:00,5.0'].join('\n') + '\n');
  const env = TableEnvironment.create({ mode: 'batch', discoverPackages: false, config: { 'table.local-time-zone': 'UTC' } });
  try {
    await env.executeSql(`CREATE TABLE t (ts TIMESTAMP(3), y DOUBLE, WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'data.csv')}', 'format' = 'csv')`);
    const out: unknown[][] = [];
    for await (const r of (await env.executeSql(sql)).collect()) out.push([...r.fields]);
    return out;
  } finally {
    await env.close();
  }
}

const byEnd = (out: unknown[][]): Record<string, unknown[]> => Object.fromEntries(out.map((r) => [new Date(r[0] as number).toISOString().slice(11, 16), r.slice(1)]));

describe('batch window aggregates in arrival order', () => {
  it('HOP: a NaN in the older slice stays the MIN and MAX of a window that also holds a newer slice', async () => {
    const out = byEnd(await rows("SELECT window_end, MIN(y), MAX(y) FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' MINUTE, INTERVAL '4' MINUTE)) GROUP BY window_start, window_end"));
    expect(Object.keys(out).sort()).toEqual(['23:50', '23:52', '23:54']);
    // [23:48, 23:52) holds NaN, then -1.0 and 5.0 in the newer slice.
    expect(out['23:52']).toEqual([Number.NaN, Number.NaN]);
    expect(out['23:54']).toEqual([-1, 5]);
  });

  it('CUMULATE: the same', async () => {
    const out = byEnd(await rows("SELECT window_end, MIN(y), MAX(y) FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '2' MINUTE, INTERVAL '4' MINUTE)) GROUP BY window_start, window_end"));
    expect(out['23:50']).toEqual([Number.NaN, Number.NaN]);
    expect(out['23:52']).toEqual([Number.NaN, Number.NaN]);
  });
});
