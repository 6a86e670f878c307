import { describe, expect, it } from 'vitest';
import type { Phase } from '../../contract/scenario.js';
import { DRIVER_YOUNG_GENERATION_MB, driverYoungGenerationMb } from './driver.js';

// The driver worker's young generation follows what its phases ask of it (issue 29: a driver that
// waits for its work gets fewer, larger collections, so fewer requests are read late; a saturated one
// keeps the small, cheap nursery). Built as the scenario schema builds phases.
const request = { path: '/' };
const rate = { name: 'r', executor: 'rate', rate: 100, durationMs: 1000, arrivals: 'uniform', requests: [request] } as unknown as Phase;
const closed = { name: 'c', executor: 'closed', users: 10, durationMs: 1000, thinkMs: 0, requests: [request] } as unknown as Phase;
const thinking = { ...closed, thinkMs: 200 } as Phase;
const stepThink = { ...closed, requests: [{ path: '/a', thinkMs: 50 }, request] } as unknown as Phase;
const sequential = { name: 's', executor: 'sequential', count: 10, clients: 1, requests: [request] } as unknown as Phase;
const oneUser = { ...closed, users: 1 } as Phase;

describe('driverYoungGenerationMb', () => {
  it('gives a saturating closed plan the small nursery', () => {
    expect(driverYoungGenerationMb([closed], undefined)).toBe(DRIVER_YOUNG_GENERATION_MB.saturated);
  });

  it('gives a plan with open-loop, one-at-a-time (sequential, one user) or thinking phases the roomy one', () => {
    for (const phases of [[rate], [closed, rate], [sequential], [oneUser], [thinking], [stepThink]]) {
      expect(driverYoungGenerationMb(phases, undefined)).toBe(DRIVER_YOUNG_GENERATION_MB.waiting);
    }
    expect(DRIVER_YOUNG_GENERATION_MB.waiting).toBeGreaterThan(DRIVER_YOUNG_GENERATION_MB.saturated);
  });

  it('takes a measuring aid\'s size from LOADSCOPE_DRIVER_YOUNG_GENERATION_MB, ignoring what is not a size', () => {
    expect(driverYoungGenerationMb([closed], '48')).toBe(48);
    expect(driverYoungGenerationMb([rate], '6')).toBe(6);
    for (const bad of ['', 'lots', '0', '-5', '1e9', 'NaN']) expect(driverYoungGenerationMb([closed], bad)).toBe(DRIVER_YOUNG_GENERATION_MB.saturated);
  });
});
