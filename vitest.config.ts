import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/setup/sequencer.js';

/**
 * Files that must run in a process of their own: the end-to-end and real-server suites (they start CLIs, servers
 * and worker threads, and read the servers' variables), and unit files that replace a module for the whole file
 * (vi.mock), which a module graph shared with other files would leak into them or ignore. A new unit file that
 * mocks a module belongs here.
 */
const ISOLATED = ['test/e2e/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/connectors/filesystem/file-sink-durability.test.ts'];

const common = {
  // Integration tests talk to real servers; they need more than the default 5 s.
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Stopping the servers (a Kafka controlled shutdown) may take longer than the default 10 s.
  teardownTimeout: 60_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    // Starts the Kafka, Pravega and schema-registry servers the selected test files need, on free ports of this
    // run's own, and stops them at the end (see the file's comment for the variables the tests read). Here only,
    // not in the projects: each project's global setup runs, and the servers must start once.
    globalSetup: ['test/setup/servers.ts'],
    ...common,
    // Three files at a time, even on two cores (Vitest's default there is one): most of the suite's time goes to
    // crash trials and real-server suites that wait on checkpoints, kills and servers. With two, the machine still
    // sat 15 % idle through a CI run and vitest took 664 s; with three, 6.5 % idle and 533 s (2026-12-03, the same
    // commit, no other work running), the three longest files (the rescale and operator crash trials, the Flink
    // gateway suite) side by side. SLUICE_TEST_WORKERS=1 runs one file at a time.
    maxWorkers: Number(process.env.SLUICE_TEST_WORKERS ?? 3),
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      { test: { ...common, name: 'isolated', include: ISOLATED } },
      // The ~200 unit files share their worker's module graph (isolate: false): loading the engine's modules
      // anew for every file was most of their time (a third of a second to two seconds a file, on a busy
      // machine), three times what their tests took. They keep no state between files: no module mocks, and
      // what a test changes (a fake clock, a temporary folder) it restores itself.
      { test: { ...common, name: 'unit', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
    ],
  },
});
