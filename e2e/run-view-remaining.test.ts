import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// "remaining" on a matrix whose cells differ in size (8 then 600 requests, one after the other) keeps
// one estimate of the end: it was extrapolated per server run, so after the small cell it said almost
// nothing was left and then grew through the large one (8.5 -> 5.4 -> 13 -> 22 s on a seed matrix).
// Read as the predicted end (elapsed + remaining), it must not drift by a factor of two. The rate the
// machine manages does not matter: the estimate is checked against itself.

const { page, byTestId, browser } = useWorkbench();
const MATRIX = {
  name: 'remaining-matrix',
  servers: [{ architecture: 'single' }],
  phases: [{ name: 'one by one', executor: 'sequential', count: 8, requests: [{ path: '/sleep?ms=20' }] }],
  matrix: { 'phases[0].count': [8, 600] },
};

const seconds = (text: string, label: string): number | null => {
  const m = new RegExp(`${label}\\s+~?(\\d+(?:\\.\\d+)?) s`).exec(text);
  return m === null ? null : Number(m[1]);
};

describe('the Run view’s remaining time, in Chromium', () => {
  it('keeps one estimate of the end across matrix cells of different sizes', async () => {
    await openScenario(page(), 'remaining-matrix', MATRIX);
    await byTestId('start-run').click();
    const ends: number[] = [];
    // every progress figure the page shows until the run finishes (the engine sends one every 500 ms)
    let last = '';
    const record = async (): Promise<string | null> => {
      const text = await byTestId('run-progress').innerText().catch(() => '');
      if (text !== last) {
        last = text;
        const elapsed = seconds(text, 'elapsed');
        const remaining = seconds(text, 'remaining');
        const requests = Number(/requests\s+([\d,]+)/.exec(text)?.[1]?.replace(/,/g, '') ?? 0);
        // from a tenth of the requests on: the first few carry a new server's warm-up
        if (elapsed !== null && remaining !== null && remaining > 0 && requests >= 61) ends.push(elapsed + remaining);
      }
      return byTestId('run-view').getAttribute('data-phase');
    };
    await until(record, (phase) => phase === 'finished', 'the run to finish', 120_000, 100);
    expect(ends.length, 'estimates shown while it ran').toBeGreaterThan(3);
    expect(Math.max(...ends) / Math.min(...ends), `predicted ends (s): ${ends.join(', ')}`).toBeLessThan(2);
    expect(browser().problems).toEqual([]);
  });
});
