// Injected in-process failures with the restart strategy (issue #12 item 6): a UDF throws once after a
// checkpoint completed; 'restart-strategy.type' = 'fixed-delay' restores the job from that checkpoint.
// The GROUP BY's COUNT and SUM, written as a debezium-json changelog and materialized, must be exactly
// those of 1..N: the issue saw COUNT totals of 3,075-3,600 instead of 3,000 for `GROUP BY n % 3`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { hasCompleteCheckpoint, materializedOutput, mulberry32 } from './harness.js';

const N = 3000;
const TRIALS = Number(process.env.CRASH_RESTART_TRIALS ?? '3');
// 6 s of input: the first checkpoints complete well before its end even on a busy machine.
const ROWS_PER_SECOND = 500;

const dirs: string[] = [];
afterAll(() => {
  if (!process.env.CRASH_DEBUG) for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** COUNT(*) and SUM(n) of n in 1..N per n % 3, as the sink's JSON rows. */
function expected(): string[] {
  const rows: string[] = [];
  for (let k = 0; k < 3; k++) {
    let c = 0;
    let s = 0;
    for (let n = 1; n <= N; n++) {
      if (n % 3 !== k) continue;
      c++;
      s += n;
    }
    rows.push(JSON.stringify({ k, c, s }));
  }
  return rows.sort();
}

describe('GROUP BY COUNT/SUM under an injected in-process failure and the fixed-delay restart strategy', () => {
  it(`a UDF failing once after a completed checkpoint: the restored job still counts 1..${N} exactly once`, async () => {
    const seed = Number(process.env.CRASH_SEED ?? 20261202);
    const random = mulberry32(seed);
    for (let trial = 0; trial < TRIALS; trial++) {
      const dir = mkdtempSync(join(tmpdir(), 'sluice-crash-restart-'));
      dirs.push(dir);
      const chk = join(dir, 'chk');
      // The failure comes once a checkpoint exists and the row reached lies in the middle third.
      const failFrom = N / 3 + Math.floor(random() * (N / 3));
      let failedAt: bigint | undefined;
      let checkpointed = false;
      const env = TableEnvironment.create({ mode: 'streaming' });
      try {
        env.createTemporarySystemFunction('chaos', {
          eval: (v: bigint) => {
            if (failedAt === undefined && v >= BigInt(failFrom) && (checkpointed ||= hasCompleteCheckpoint(chk))) {
              failedAt = v;
              throw new Error(`injected failure at ${v}`);
            }
            return v;
          },
          argumentTypes: [DataTypes.BIGINT()],
          resultType: DataTypes.BIGINT(),
          deterministic: false,
        });
        for (const stmt of [
          `SET 'execution.checkpointing.interval' = '100 ms'`,
          `SET 'execution.checkpointing.dir' = '${chk}'`,
          `SET 'restart-strategy.type' = 'fixed-delay'`,
          `SET 'restart-strategy.fixed-delay.attempts' = '2'`,
          `SET 'restart-strategy.fixed-delay.delay' = '10 ms'`,
          `CREATE TEMPORARY TABLE numbers (n BIGINT) WITH ('connector' = 'datagen', 'fields.n.kind' = 'sequence',
             'fields.n.start' = '1', 'fields.n.end' = '${N}', 'rows-per-second' = '${ROWS_PER_SECOND}')`,
          `CREATE TEMPORARY TABLE sink (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'out')}', 'format' = 'debezium-json')`,
        ]) {
          await env.executeSql(stmt);
        }
        const result = await env.executeSql('INSERT INTO sink SELECT m % 3, COUNT(*), SUM(m) FROM (SELECT chaos(n) AS m FROM numbers) GROUP BY m % 3');
        const done = await result.getJobClient()!.waitForCompletion();
        const what = `trial ${trial} (seed ${seed}): failure at ${failedAt ?? 'none'} (from ${failFrom}), ${dir}`;
        expect(done.status, what).toBe('FINISHED');
        expect(failedAt, what).toBeDefined();
        expect(done.restarts, what).toBe(1);
        const table = materializedOutput(join(dir, 'out'));
        const rows = [...table].flatMap(([row, n]) => Array.from({ length: Math.max(0, n) }, () => row)).sort();
        // A negative count: the restored job retracted a row the sink never committed.
        const negative = [...table].filter(([, n]) => n < 0).map(([row, n]) => `${row} x${n}`);
        expect({ rows, negative }, what).toEqual({ rows: expected(), negative: [] });
      } finally {
        await env.close();
      }
    }
  }, 180_000);
});
