import { defineConfig } from 'vitest/config';

// Five projects: the pure rules and the configuration need no database; the service and the
// web client (in a real browser) run against a real PostgreSQL started by the global setup
// (embedded unless DATABASE_URL is set).
export default defineConfig({
  test: {
    // Property tests play many whole games; on a shared 2-core machine they can take
    // minutes. Generous ceilings keep a slow run from failing; speed is measured by npm run bench.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    // expect.poll waits for something to happen (a page drawn, a mail arrived); its 1 s default
    // failed tests on a loaded machine (the lobby's sign-in in the full run). Waiting longer
    // costs nothing when it passes; a poll that must fail quickly passes its own timeout.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      { extends: true, test: { name: 'domain', include: ['test/domain/**/*.test.ts', 'test/kernel/**/*.test.ts'] } },
      { extends: true, test: { name: 'config', include: ['test/config/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'service',
          include: ['test/persistence/**/*.test.ts', 'test/app/**/*.test.ts', 'test/api/**/*.test.ts', 'test/games/**/*.test.ts', 'test/workers/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      {
        // Real parts past one machine: PostgreSQL 15 clusters and standbys of the tests' own,
        // PgBouncer, HAProxy, server and worker processes (test/scaling/parts.ts). Each file
        // starts what it needs; the files run one at a time (a 2-core machine).
        extends: true,
        test: { name: 'scaling', include: ['test/scaling/**/*.test.ts'], fileParallelism: false },
      },
      {
        // The web client in a real Chromium (skipped, loudly, when none is installed).
        extends: true,
        test: {
          name: 'web',
          include: ['test/web/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts', 'test/web/build-setup.ts'],
        },
      },
    ],
  },
});
