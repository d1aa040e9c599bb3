import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The browser suites poll what the page shows; on a shared two-core machine a screen can take
    // longer than vitest's 1 s default to update, which is load, not a failure.
    expect: { poll: { timeout: 10_000 } },
    // PGlite engines are memory-hungry and the machines have two cores.
    pool: 'forks',
    maxWorkers: 2,
  },
});
