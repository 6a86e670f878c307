import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { NoBrowserError } from './find-browser.js';

// Chromium (the one global-setup.ts found or installed) driven by playwright-core, with a fresh
// profile per launch and everything that would phone home switched off.
export const VIEWPORT = { width: 1280, height: 800 } as const;

export interface OpenBrowser {
  context: BrowserContext;
  page: Page;
  /** console errors and page errors seen so far: a clean UI has none */
  problems: string[];
  close(): Promise<void>;
}

/** The browser global-setup.ts found; without one, the one line saying what to install. */
export function chromiumPath(): string {
  const found = inject('chromium');
  if ('error' in found) throw new NoBrowserError(found.error);
  return found.path;
}

export async function openBrowser(url: string): Promise<OpenBrowser> {
  const executablePath = chromiumPath();
  const profile = mkdtempSync(join(tmpdir(), 'loadscope-chromium-'));
  // a persistent context is how playwright takes a profile folder (it refuses --user-data-dir)
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const close = async () => {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()} (${msg.location().url})`);
    });
    page.on('pageerror', (err) => problems.push(`page: ${err.message}`));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`http ${res.status()}: ${res.request().method()} ${new URL(res.url()).pathname}`);
    });
    await page.goto(url);
    return { context, page, problems, close };
  } catch (err) {
    await close();
    throw err;
  }
}
