import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongFilesFirst from './scripts/long-files-first.mjs';

// Two projects: unit/integration tests beside their code, and e2e tests that drive the real UI in
// Chromium. Both run against the built dist/ (npm test builds first), because servers and driver
// workers are spawned as real processes and threads from compiled JS.
// Files run side by side: most unit files wait (on deadlines, fixed-length phases, child processes)
// rather than compute. One at a time, as vitest's default of cores - 1 gave on 2 cores, they kept
// one core of two about half busy (docs/ci.md, "The suite's own time"). Every file has its own
// ports (0), temporary folders and processes, so files do not see one another.
const UNIT_WORKERS = Math.max(3, availableParallelism() - 1);
// each e2e file starts its own host on a fresh database and its own Chromium, so two can share
// the machine; more would mostly wait for the CPU Chromium needs
const E2E_WORKERS = 2;
// After vitest's own closing lines, one line names every test that did not run and why
// (engine/test-support/skipped-reporter.ts; skips go through engine/test-support/skip.ts).
export default defineConfig({
  test: {
    reporters: ['default', './engine/test-support/skipped-reporter.ts'],
    // the files of minutes start first, so none is left running alone at the end
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{contract,engine,db,servers,cli,reproduce,electron,renderer,scenarios,packaging,bench}/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: UNIT_WORKERS,
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
          pool: 'forks',
          maxWorkers: E2E_WORKERS,
          // after the unit files (vitest runs a group at a time; its own workers count per group)
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
