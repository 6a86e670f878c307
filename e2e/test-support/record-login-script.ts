import type { Page } from 'playwright-core';

// The person a recording test has no room for, as a page script (LOADSCOPE_TEST_RECORD_SCRIPT names
// this file's build, dist/e2e/test-support/record-login-script.js): on record-site.ts's page it signs
// in, waits for the list, opens item 1 and waits for it. With #close-when-done in the URL it then
// closes the window, as a person who is done would; with #quit-when-done it quits the whole browser,
// as Chromium does when a person closes its last window.

export default async function clickThrough(page: Page, url: URL): Promise<void> {
  await page.locator('#sign-in').click();
  await page.locator('#items a').first().click();
  await page.locator('#detail').filter({ hasText: 'item 1: first' }).waitFor();
  if (url.hash === '#close-when-done') await page.close();
  if (url.hash === '#quit-when-done') await (await page.context().newCDPSession(page)).send('Browser.close').catch(() => undefined);
}
