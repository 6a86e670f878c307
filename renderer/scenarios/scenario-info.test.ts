import { describe, expect, it } from 'vitest';
import { Phase } from '../../contract/scenario';
import { matrixFieldsOf, phaseLoad } from './scenario-info';

// The outline's load column: a field the matrix varies is shown with its values per cell, never the
// base value that no cell runs.

const closed = Phase.parse({ executor: 'closed', users: 64, count: 1000, requests: [{ path: '/' }] });
const rate = Phase.parse({ executor: 'rate', rate: 100, durationMs: 1500, requests: [{ path: '/' }] });

describe('phaseLoad', () => {
  it('states the phase as written when the matrix leaves it alone', () => {
    expect(phaseLoad(closed)).toBe('64 users, 1,000 requests');
    expect(phaseLoad(rate, matrixFieldsOf({ 'servers[*].cores': [1, 2] }, 0))).toBe('100 req/s for 1.5 s (uniform)');
  });

  it("shows the matrix's values for a field it varies, for that phase or every phase", () => {
    expect(phaseLoad(closed, matrixFieldsOf({ 'phases[0].count': [10, 128] }, 0))).toBe('64 users, 10 · 128 requests');
    expect(phaseLoad(closed, matrixFieldsOf({ 'phases[1].count': [10, 128] }, 0))).toBe('64 users, 1,000 requests');
    expect(phaseLoad(rate, matrixFieldsOf({ 'phases[*].rate': [200, 800] }, 3))).toBe('200 · 800 req/s for 1.5 s (uniform)');
  });
});
