import { defineConfig } from 'vitest/config';

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
  },
});
