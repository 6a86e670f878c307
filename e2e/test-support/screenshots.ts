import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { rootPath } from '../../engine/paths.js';

// Screenshots of each view, at the viewport's 1280x800, for the README (docs/screenshots/).
// Only the visible window, as a person would see it; the caller scrolls what matters into view.

export const SCREENSHOT_DIR = rootPath('docs/screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = `${SCREENSHOT_DIR}/${name}.png`;
  // no focus ring left on the last control the test touched
  await page.evaluate('document.activeElement instanceof HTMLElement && document.activeElement.blur()');
  // charts animate in; wait for two frames after fonts so the picture is not mid-redraw
  await page.evaluate('document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))');
  await page.screenshot({ path, fullPage: false, animations: 'disabled' });
  // LOADSCOPE_E2E_FULL=<folder>: also the whole page, to review what lies below the fold
  const full = process.env.LOADSCOPE_E2E_FULL;
  if (full !== undefined && full !== '') {
    mkdirSync(full, { recursive: true });
    // the content column scrolls inside a 100%-high frame, so "full page" means a taller window
    const size = page.viewportSize();
    await page.setViewportSize({ width: size?.width ?? 1280, height: 2600 });
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    await page.screenshot({ path: `${full}/${name}.full.png`, animations: 'disabled' });
    if (size !== null) await page.setViewportSize(size);
  }
  return path;
}
