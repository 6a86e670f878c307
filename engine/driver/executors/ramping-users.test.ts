import { afterEach, describe, expect, it } from 'vitest';
import { collect, rampingUsers } from '../test-support/phases.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import { UserRamp } from './user-ramp.js';
import { rampingUsers as rampingUsersModule } from './ramping-users.js';
import { NumberRing } from '../ring.js';
import type { GroupPort } from './executor.js';
import type { RampingUsersPhase } from '../../../contract/scenario.js';

// The ramping-users executor against a real server through the real driver worker: at every moment
// a request is sent, the users with a request in flight (measured from the raw rows' sent/done
// times) are within what the ramp allows then; and the ramp actually reaches its targets.

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('UserRamp', () => {
  it('ramps linearly between targets and reports when a count is reached', () => {
    const ramp = new UserRamp(0, [{ durationMs: 100, target: 4 }, { durationMs: 100, target: 4 }, { durationMs: 100, target: 1 }]);
    expect([0, 25_000, 50_000, 99_999, 100_000, 150_000, 200_000, 299_999, 300_000].map((t) => ramp.usersAt(t))).toEqual([0, 1, 2, 3, 4, 4, 4, 1, 0]);
    expect(ramp.timeUsersReach(3, 0)).toBe(75_000);
    expect(ramp.timeUsersReach(5, 0)).toBe(Infinity);
  });
});

describe('ramping-users joins on a late turn', () => {
  it('a scheduler turn 250 ms late (a stalled machine) joins the users it owes, each intended when the ramp first allowed it, never earlier', () => {
    const issued: number[] = [];
    const g: GroupPort = { startUs: 0, queue: new NumberRing(), inFlight: 0, freeSlots: () => 10, issue: (at) => issued.push(at), thinkAfterUs: (us) => us, wake: () => {} };
    const phase = { executor: 'ramping-users', startUsers: 0, stages: [{ durationMs: 400, target: 4 }], thinkMs: 0, maxDurationMs: 10_000 } as unknown as RampingUsersPhase;
    const state = rampingUsersModule.create(phase, { startUs: 0 } as never);
    state.start(g);
    // the ramp allows user 1 at 100 ms, 2 at 200, 3 at 300: the first turn comes only at 350 ms
    state.pump(g, 350_000);
    expect(issued).toEqual([100_000, 200_000, 300_000]);
  });
});

describe('ramping-users executor', () => {
  it('holds its stages: users in flight never above the ramp, and the targets are reached', async () => {
    server = await startTestServer();
    const stages = [
      { durationMs: 400, target: 4 },
      { durationMs: 400, target: 4 },
      { durationMs: 300, target: 1 },
    ];
    const { rows, result, starts } = await collect(server.url, [rampingUsers(stages)]);
    expect(result.cancelled).toBe(false);
    const ramp = new UserRamp(0, stages);
    const sent = rows.filter((r) => r.sentUs !== null);
    expect(sent.length).toBeGreaterThan(10);
    const t0 = starts[0]!.tMs * 1000; // the phase start on the rows' clock
    let peak = 0;
    for (const r of sent) {
      // users with a request in flight when r was intended (r included)
      const inFlight = sent.filter((o) => o.intendedUs <= r.intendedUs && o.doneUs > r.intendedUs).length;
      peak = Math.max(peak, inFlight);
      expect(inFlight, `at ${((r.intendedUs - t0) / 1000).toFixed(1)} ms`).toBeLessThanOrEqual(ramp.usersAt(r.intendedUs - t0));
    }
    expect(peak).toBe(4);
    // nothing is intended after the last stage
    expect(Math.max(...rows.map((r) => r.intendedUs)) - t0).toBeLessThan(1_100_000);
  });
});
