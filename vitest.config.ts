import { defineConfig } from 'vitest/config';

// Two projects: unit/integration tests beside their code, and e2e tests that drive the real UI in
// Chromium one file at a time. Both run against the built dist/ (npm test builds first),
// because servers and driver workers are spawned as real processes and threads from compiled JS.
// After vitest's own closing lines, one line names every test that did not run and why
// (engine/test-support/skipped-reporter.ts; skips go through engine/test-support/skip.ts).
export default defineConfig({
  test: {
    reporters: ['default', './engine/test-support/skipped-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{contract,engine,db,servers,cli,reproduce,electron,renderer,scenarios,packaging}/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // finds Chromium, or installs it where the machine allows (e2e/test-support/find-browser.ts)
          globalSetup: ['e2e/test-support/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          pool: 'forks',
        },
      },
    ],
  },
});
