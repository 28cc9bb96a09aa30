import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/setup/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts the Kafka, Pravega and schema-registry servers the selected test files need, on free ports of this
    // run's own, and stops them at the end (see the file's comment for the variables the tests read).
    globalSetup: ['test/setup/servers.ts'],
    // Integration tests talk to real servers; they need more than the default 5 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Stopping the servers (a Kafka controlled shutdown) may take longer than the default 10 s.
    teardownTimeout: 60_000,
    pool: 'forks',
    // Two files at a time, even on two cores (Vitest's default there is one): most of the suite's time goes to
    // crash trials and real-server suites that wait on checkpoints, kills and servers, not on the CPU.
    // SLUICE_TEST_WORKERS=1 runs one file at a time.
    maxWorkers: Number(process.env.SLUICE_TEST_WORKERS ?? 2),
    sequence: { sequencer: LongestFirstSequencer },
  },
});
