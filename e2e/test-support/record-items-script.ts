import type { Page } from 'playwright-core';

// The person of record-to-ramp.test.ts, as a page script (LOADSCOPE_TEST_RECORD_SCRIPT names this
// file's build, dist/e2e/test-support/record-items-script.js): on record-items-page.ts's page it signs in,
// waits for the list, adds a pen and waits until it was opened and deleted.

export default async function clickThrough(page: Page): Promise<void> {
  await page.locator('#sign-in').click();
  await page.locator('#add:not([disabled])').click();
  await page.locator('#detail').filter({ hasText: /^item \d+: pen, deleted$/ }).waitFor();
}
