import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { until } from './poll.js';

// What the Run view's e2e files share: opening a scenario as a person would, and screenshots at the
// two widths a person is asked to look at (outside the repository: they are for reviewing, not docs).

const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? join(tmpdir(), 'loadscope-e2e-shots');

/** Opens the scenario as a file in the Run view's picker, as a person would. */
export async function openScenario(p: Page, name: string, scenario: unknown): Promise<void> {
  await p.getByTestId('scenario-file-input').setInputFiles({ name: `${name}.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scenario)) });
  await until(() => p.getByTestId('scenario-select').inputValue(), (v) => v === 'file', 'the picker to show the file');
}

export interface ShotOptions {
  /** scrolled to the middle of the window at each width */
  show?: Locator;
  /** the folder (default: $LOADSCOPE_E2E_SHOTS or a folder in the system's temp) */
  dir?: string;
}

/** The visible window at 1440 and 1024 px wide, for a person to look at. */
export async function shots(p: Page, name: string, { show, dir = SHOTS }: ShotOptions = {}): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const width of [1440, 1024]) {
    await p.setViewportSize({ width, height: 900 });
    await show?.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await p.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    await p.screenshot({ path: `${dir}/${name}-${width}.png`, animations: 'disabled' });
  }
  await p.setViewportSize({ width: 1280, height: 800 });
}

