import { describe, expect, it } from 'vitest';
import { describePhaseSize } from '../../engine/scenario/summary.js';
import { planPhases } from '../../engine/scenario/plan.js';
import { Phase } from '../../contract/scenario.js';
import { formatReportTables } from './report.js';

// The CLI's text: counts are whole numbers, units agree with their counts.

describe('CLI report tables and counts', () => {
  it('prints counts as whole numbers with thousands separators, times with their decimals', () => {
    const text = formatReportTables([
      { title: 'Sequential server', unit: '', header: ['phase', 'requests', 'errors', 'duration (ms)', 'throughput (req/s)'], rows: [['warm', 30, 0, 68.48, 438.1], ['long', 12_345, 2, 1287.5, 23.3]] },
    ]);
    const [, , , warm, long] = text.split('\n');
    expect(warm).toMatch(/^warm\s+30\s+0\s+68\.48\s+438\.1$/);
    expect(long).toMatch(/^long\s+12,345\s+2\s+1287\.5\s+23\.30$/);
    expect(text).not.toContain('30.00');
  });

  it('"1 user", "2 users": a phase says its users and requests in English', () => {
    const one = Phase.parse({ executor: 'closed', users: 1, count: 1, requests: [{ path: '/' }] });
    const two = Phase.parse({ executor: 'closed', users: 2, count: 5, requests: [{ path: '/' }] });
    expect(describePhaseSize(one)).toBe('1 user, 1 request');
    expect(describePhaseSize(two)).toBe('2 users, 5 requests');
    expect(planPhases([one])[0]!.load).toBe('1 user, 1 request');
  });
});
