// Crash trial of the pravega-registry sink path (the writer opens the format, registers or finds the schema, gets an
// encoding id, then writes transactions): a datagen sequence is written exactly-once into a Pravega catalog table
// through the built CLI, SIGKILLed at seeded random moments and resumed with --resume until a run ends by itself
// (harness of test/e2e/crash). The committed events, read back through the catalog, must equal a failure-free run's
// exactly. CRASH_KILLS kills (default 3), CRASH_SEED replays, CRASH_DEBUG=1 prints the log.
import { basename } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../../src/api/table-environment.js';
import { crashTrial, cliAvailable, type CrashJob, type Multiset } from '../../e2e/crash/harness.js';
import { sequence } from '../../e2e/crash/jobs.js';
import { ControllerClient } from '../../../src/connectors/pravega/client/index.js';
import { pravegaAvailable } from '../pravega/pravega-env.js';
import { registryAvailable } from '../pravega-registry/registry-env.js';
import { CONTROLLER_URI, createCatalogSql, newEnv, run, uniqueName, valuesOf } from './catalog-env.js';

const up = (await pravegaAvailable()) && (await registryAvailable()) && cliAvailable('pravega-registry crash trial');
const KILLS = Number(process.env.CRASH_KILLS ?? '3');
const ROWS = 4000;

describe.skipIf(!up)('INSERT into a Pravega catalog table under SIGKILL and --resume', () => {
  const scope = uniqueName('sluicecrash');
  const envs: TableEnvironment[] = [];
  let admin: TableEnvironment | undefined;

  /** One stream (and group) per job directory, so every run of the trial has its own output. */
  const streamOf = (dir: string): string => `out${basename(dir).replace(/[^A-Za-z0-9]/g, '')}`;

  afterAll(async () => {
    for (const e of envs) await e.close();
  });

  it(`commits the failure-free run's events across ${KILLS} kills`, async () => {
    const controller = new ControllerClient(CONTROLLER_URI);
    try {
      await controller.createScope(scope);
    } finally {
      controller.close();
    }
    admin = newEnv(envs);
    await run(admin, createCatalogSql('p', scope));
    await run(admin, "SET 'execution.runtime-mode' = 'batch'");

    const job: CrashJob = {
      name: 'pravega-registry-sink',
      sources: sequence('numbers', { rows: ROWS, rowsPerSecond: 1500 }),
      sinkColumns: '',
      query: "SELECT id, CONCAT('n', CAST(id AS STRING)), CAST(id AS DOUBLE) * 2.5 FROM numbers",
      output: {
        // The catalog table's options, with the exactly-once semantic on top (CREATE TABLE ... LIKE).
        ddl: (dir) =>
          `${createCatalogSql('p', scope)};\nCREATE TEMPORARY TABLE crash_sink WITH ('sink.semantic' = 'exactly-once') LIKE p.${scope}.${streamOf(dir)}`,
        prepare: async (dir) => {
          await run(admin!, `CREATE TABLE p.${scope}.${streamOf(dir)} (id BIGINT NOT NULL, name STRING, v DOUBLE)`);
        },
        read: async (dir): Promise<Multiset> => {
          const reader = `r_${streamOf(dir)}`;
          await run(admin!, `CREATE TEMPORARY TABLE IF NOT EXISTS ${reader} WITH ('scan.execution.type' = 'batch') LIKE p.${scope}.${streamOf(dir)}`);
          const rows: Multiset = new Map();
          for (const r of await valuesOf(admin!, `SELECT id, name, v FROM ${reader}`)) {
            const key = JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
            rows.set(key, (rows.get(key) ?? 0) + 1);
          }
          return rows;
        },
      },
    };
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
    const r = await crashTrial(job, { kills: KILLS, seed, checkpointIntervalMs: 300, keepDirs: Boolean(process.env.CRASH_DEBUG) });
    const log = r.log.join('\n');
    if (process.env.CRASH_DEBUG) console.log(log);
    expect(r.kills).toBeGreaterThanOrEqual(KILLS);
    expect({ extra: r.extra.slice(0, 10), missing: r.missing.slice(0, 10) }, log).toEqual({ extra: [], missing: [] });
    // The failure-free run wrote every row once, with the values the query computes.
    const expected = Array.from({ length: ROWS }, (_, i) => JSON.stringify([String(i + 1), `n${i + 1}`, (i + 1) * 2.5])).sort();
    expect([...r.reference].flatMap(([row, n]) => Array<string>(n).fill(row)).sort()).toEqual(expected);
  }, 400_000);
});
