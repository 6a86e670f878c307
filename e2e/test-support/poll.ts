import type { Locator } from 'playwright-core';

// Waiting on the page without sleeps: poll an observable value until it satisfies a condition or a
// deadline passes, then fail with what was last seen.

export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 30_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await read();
    if (ok(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A chart's data-points attribute (how many points it plots), 0 when absent. */
export async function pointsOf(chart: Locator): Promise<number> {
  const value = await chart.getAttribute('data-points', { timeout: 5_000 }).catch(() => null);
  return value === null ? 0 : Number(value);
}
