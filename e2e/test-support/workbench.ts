import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { openBrowser, type OpenBrowser } from './browser.js';
import { startHost, type RunningHost } from './host.js';

// The set-up every workbench e2e file shares: the real browser host on a fresh database and one
// Chromium page on it, opened before the file's tests and closed after. Call it at the top of a
// describe block (or the file); the tests reach the page through what it returns.

export interface Workbench {
  /** the one page the tests share; throws when the browser did not start */
  page(): Page;
  byTestId(id: string): Locator;
  /** the running host (its URL, data folder, stderr) */
  host(): RunningHost;
  browser(): OpenBrowser;
}

export interface WorkbenchOptions {
  /** runs once the page is open, before it waits for the Run view (e.g. to register a dialog handler) */
  onPage?: (page: Page) => void;
  /** more of the host's environment, asked for when the host starts (inside the test's hooks) */
  hostEnv?: () => Record<string, string>;
}

export function useWorkbench(options: WorkbenchOptions = {}): Workbench {
  let host: RunningHost | undefined;
  let chromium: OpenBrowser | undefined;

  const browser = (): OpenBrowser => {
    if (chromium === undefined) throw new Error('the browser did not start');
    return chromium;
  };
  const page = (): Page => browser().page;

  beforeAll(async () => {
    host = await startHost(undefined, undefined, options.hostEnv?.());
    chromium = await openBrowser(host.url);
    options.onPage?.(chromium.page);
    await chromium.page.getByTestId('run-view').waitFor();
  });

  afterAll(async () => {
    await chromium?.close();
    await host?.stop();
  });

  return {
    page,
    byTestId: (id) => page().getByTestId(id),
    host: () => {
      if (host === undefined) throw new Error('the host did not start');
      return host;
    },
    browser,
  };
}
