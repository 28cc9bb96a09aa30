import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests talk to real brokers started by .ci/run; they need more than the default 5 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
