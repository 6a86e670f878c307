import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { LoadscopeError } from '../../contract/errors.js';

// For tests only: LOADSCOPE_TEST_RECORD_SCRIPT names a module whose default export is called with the
// recording's page once it has opened the URL, and clicks through the journey as a person would
// (tests have no person and no display). Set, it also makes the browser headless. It gives nothing
// an environment variable does not already give (NODE_OPTIONS=--import runs any module too), and
// only a recorder started by the CLI or the browser host reads it; the desktop records in its own
// window without playwright.

const TEST_SCRIPT_ENV = 'LOADSCOPE_TEST_RECORD_SCRIPT';

export type PageScript = (page: Page, url: URL) => Promise<void>;

/** The script the environment names, or null when none is named. */
export async function testPageScript(env: Record<string, string | undefined> = process.env): Promise<PageScript | null> {
  const path = env[TEST_SCRIPT_ENV];
  if (path === undefined || path === '') return null;
  if (!isAbsolute(path)) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${TEST_SCRIPT_ENV} must be an absolute path`);
  const module = (await import(pathToFileURL(path).href)) as { default?: unknown };
  if (typeof module.default !== 'function') throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${TEST_SCRIPT_ENV}: ${path} has no default export function (page, url)`);
  return module.default as PageScript;
}
