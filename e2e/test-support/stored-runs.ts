import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { rootPath } from '../../engine/paths.js';
import { openBrowser, type OpenBrowser } from './browser.js';
import { startHost, type RunningHost } from './host.js';

// Runs a person made earlier: stored by the CLI (`loadscope run --json --db`) into a temporary
// database, then the real browser host opened on it, as the History and Compare tests meet them.

const BIN = rootPath('bin/loadscope.js');

/** The folder and database runs are stored into before the host starts. */
export interface RunStore {
  dir: string;
  db: string;
  /** `loadscope <args> --db <db>`, as a person types it */
  cli(args: readonly string[], timeoutMs?: number): SpawnSyncReturns<string>;
  /**
   * Writes `doc` as `<name>.json` beside the database and stores it with `loadscope run --json`,
   * expecting `exitCode` (99: completed, a threshold failed); its JSON output.
   */
  run<T extends object = { runId: number }>(name: string, doc: object, args?: readonly string[], exitCode?: number): T;
}

export interface StoredWorkbench extends RunStore {
  host: RunningHost;
  browser: OpenBrowser;
  page(): Page;
  /** closes the browser, stops the host and removes the folder */
  close(): Promise<void>;
}

/** A run's --json regression verdict as text, for a failed expectation's message. */
function regressionOf(stdout: string): string {
  try {
    return JSON.stringify((JSON.parse(stdout) as { regression?: unknown }).regression ?? null).slice(0, 4000);
  } catch {
    return stdout.slice(0, 4000);
  }
}

function runStore(dir: string): RunStore {
  const db = join(dir, 'runs.db');
  const cli = (args: readonly string[], timeoutMs = 120_000) =>
    spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: timeoutMs });
  return {
    dir,
    db,
    cli,
    run<T extends object>(name: string, doc: object, args: readonly string[] = [], exitCode = 0): T {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(doc));
      const out = cli(['run', file, '--json', ...args]);
      // on a wrong exit, what the run said: its stderr, and its regression verdict (an unjudged rule says why)
      expect(out.status, `${out.stderr}\n${regressionOf(out.stdout)}`).toBe(exitCode);
      return JSON.parse(out.stdout) as T;
    },
  };
}

/**
 * A temporary folder (`loadscope-e2e-<name>-`) whose database `seed` fills, then the host on that
 * database and Chromium on the host, its first view drawn. Whatever fails on the way is cleaned up.
 */
export async function openStoredRuns(name: string, seed: (store: RunStore) => void): Promise<StoredWorkbench> {
  const store = runStore(mkdtempSync(join(tmpdir(), `loadscope-e2e-${name}-`)));
  let host: RunningHost | undefined;
  let browser: OpenBrowser | undefined;
  const close = async () => {
    await browser?.close();
    await host?.stop();
    rmSync(store.dir, { recursive: true, force: true });
  };
  try {
    seed(store);
    host = await startHost(30_000, store.db);
    browser = await openBrowser(host.url);
    await browser.page.getByTestId('run-view').waitFor();
    const opened = { host, browser };
    return { ...store, ...opened, page: () => opened.browser.page, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A screenshot into LOADSCOPE_E2E_SHOTS (when set) for a person to look at: no focus ring, fonts and charts settled. */
export async function reviewShot(page: Page, name: string): Promise<void> {
  const shots = process.env.LOADSCOPE_E2E_SHOTS ?? '';
  if (shots === '') return;
  mkdirSync(shots, { recursive: true });
  await page.evaluate('document.activeElement instanceof HTMLElement && document.activeElement.blur()');
  await page.evaluate('document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))');
  await page.screenshot({ path: join(shots, `${name}.png`), animations: 'disabled' });
}
