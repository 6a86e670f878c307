import type { CheckCount } from '../../../contract/results.js';
import { cutText, MAX_CHECK_NAME_CHARS, MAX_CHECKS } from '../../../contract/checks.js';
import { MAX_ENDPOINTS } from './import-limits.js';

// A phase's checks from k6's own `checks` points (issue 40): a Loadscope script runs each of a
// request's checks as a k6 check() under the native driver's name for it, tagged with the endpoint
// (the request's `name`), so an import counts passes and fails per endpoint and check as the native
// driver does (engine/driver/measure/check-counts.ts). Bounded: at most MAX_ENDPOINTS endpoints and
// MAX_CHECKS checks each (further names are not counted), names cut to MAX_CHECK_NAME_CHARS.

export class EndpointChecks {
  /** endpoint -> check -> [passes, fails], in the order first seen */
  private readonly counts = new Map<string, Map<string, [number, number]>>();

  add(endpoint: string, check: string, passed: boolean, times = 1): void {
    let checks = this.counts.get(endpoint);
    if (checks === undefined) {
      if (this.counts.size >= MAX_ENDPOINTS) return;
      this.counts.set(endpoint, (checks = new Map()));
    }
    const name = cutText(check, MAX_CHECK_NAME_CHARS);
    let c = checks.get(name);
    if (c === undefined) {
      if (checks.size >= MAX_CHECKS) return;
      checks.set(name, (c = [0, 0]));
    }
    c[passed ? 0 : 1] += times;
  }

  /** Another file's counts of the same phase added to these. */
  merge(other: EndpointChecks): void {
    for (const [endpoint, checks] of other.counts) {
      for (const [name, [passes, fails]] of checks) {
        this.add(endpoint, name, true, passes);
        this.add(endpoint, name, false, fails);
      }
    }
  }

  /** An endpoint's checks as counted; undefined when it has none. */
  of(endpoint: string): CheckCount[] | undefined {
    const checks = this.counts.get(endpoint);
    if (checks === undefined) return undefined;
    return [...checks].map(([name, [passes, fails]]) => ({ name, passes, fails }));
  }
}
