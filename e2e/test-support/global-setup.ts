import type { TestProject } from 'vitest/node';
import { findBrowserOnThisMachine, NoBrowserError } from './find-browser.js';

// Runs once before the e2e project: finds (or obtains) Chromium and hands its path to the tests.
// Without one, every test that opens a browser fails with the one line saying what to install
// (support/browser.ts); the rest of the suite still runs, and nothing passes by being skipped.

export type BrowserFound = { path: string } | { error: string };

declare module 'vitest' {
  export interface ProvidedContext {
    chromium: BrowserFound;
  }
}

export default function setup(project: TestProject): void {
  try {
    project.provide('chromium', { path: findBrowserOnThisMachine() });
  } catch (err) {
    if (!(err instanceof NoBrowserError)) throw err;
    process.stderr.write(`${err.message}\n`);
    project.provide('chromium', { error: err.message });
  }
}
