import { configDefaults, defineConfig } from 'vitest/config';

/**
 * `.ci/run` runs the suite twice, on PGlite and then on PostgreSQL, and sets CMS_TEST_ONCE_DONE=1
 * for the second pass: the browser suites (test/admin-app, the /api/docs page) and the type check then run once, in the
 * PGlite pass. They are the slowest files of the suite, and the admin app reaches the database
 * only through the admin API, which test/admin runs on both databases. A plain `npm test` (with or
 * without DATABASE_URL) runs every file.
 */
const onceDone = process.env.CMS_TEST_ONCE_DONE === '1';

/**
 * What the second pass leaves out. Besides the browser suites and the type check: suites whose
 * subject is not the database, and which reach it only through operations that test/content,
 * test/media, test/admin and test/cli run on both databases: the typed client (HTTP), the OpenAPI
 * document, the AI features (a fake provider), and the media storage back ends (files, S3). On a
 * slow two-core machine the whole `.ci/run` came to 29 of its 30 minutes with them. And the CLI
 * suites that run on PGlite in either pass (below).
 */
const onceOnly = [
  'test/admin-app/**', 'test/openapi/**', 'test/typecheck.test.ts',
  'test/client/**', 'test/ai/**', 'test/media-storage/**',
  // These run the CLI on an embedded (PGlite) data folder whatever DATABASE_URL says: a second
  // pass would run them again unchanged.
  'test/cli/serve.test.ts', 'test/cli/file-modes.test.ts', 'test/cli/usage.test.ts', 'test/cli/robustness.test.ts',
  // The command lines of webhooks, admin verbs, the blog and media: their operations run on both
  // databases in test/webhooks, test/admin, test/blog and test/media, and the CLI's path to
  // PostgreSQL in test/cli.
  'test/webhooks/cli.test.ts', 'test/admin/cli.test.ts', 'test/blog/cli.test.ts', 'test/media/cli.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(onceDone ? onceOnly : [])],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The browser suites poll what the page shows; on a shared two-core machine a screen can take
    // longer than vitest's 1 s default to update, which is load, not a failure.
    expect: { poll: { timeout: 10_000 } },
    // PGlite engines are memory-hungry and the machines have two cores.
    pool: 'forks',
    maxWorkers: 2,
    // Each worker keeps its modules from one test file to the next instead of importing the whole
    // engine again for every file: importing was about a fifth of the suite's CPU (188–288 s of
    // import time summed over 125 files, against 22 s so), and the PGlite run took 17 minutes
    // instead of 25–28 on the same machine. Files share no state through modules: every suite
    // makes its own engine, database, servers and folders.
    isolate: false,
  },
});
