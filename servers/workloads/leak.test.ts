import { describe, expect, it } from 'vitest';
import { leak, MAX_LEAKED_BYTES } from './leak.js';

// The leaking target's bound: a run (or a test) that asks /leak for ever cannot make a bundled server
// take the machine's memory; past MAX_LEAKED_BYTES a call keeps nothing more and says so.

describe('the leak workload', () => {
  it('asked for 1 MB a call past its bound: what it keeps stops at MAX_LEAKED_BYTES and the call says capped', () => {
    const calls = MAX_LEAKED_BYTES / (1024 * 1024) + 3;
    let last = leak(0);
    for (let i = 0; i < calls; i++) last = leak(1024);
    expect(last.capped).toBe(true);
    expect(last.retainedBytes).toBeLessThanOrEqual(MAX_LEAKED_BYTES);
    expect(last.retainedBytes).toBeGreaterThan(MAX_LEAKED_BYTES - 1024 * 1024);
  });
});
