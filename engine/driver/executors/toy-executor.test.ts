import { afterEach, describe, expect, it } from 'vitest';
import { describePhaseLoad, expectedRequests, phaseName, plannedMs, progressPlan, type PhaseBase, type PhaseKind } from '../../../contract/phase.js';
import { readRow, type RequestRow } from '../../../contract/measurement.js';
import type { Phase } from '../../../contract/scenario.js';
import { planPhases } from '../../scenario/plan.js';
import { Runner } from '../run.js';
import { req } from '../test-support/phases.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import type { DriverPhaseResult } from '../types.js';
import type { ExecutorModule, ExecutorState, GroupPort } from './index.js';
import { addToyExecutor } from '../test-support/toy-kinds.js';

// Adding an executor takes what docs/architecture.md (Executors) lists: its schema, its entry in
// contract/phase.ts, its state machine here. A toy one, `pulse` (`count` requests, one every
// `everyMs`), added in-process to the same two tables (test-support/toy-kinds.ts), then run end to end by the real
// driver against a real server; the plan, progress and words come from its entry alone.

interface PulsePhase extends PhaseBase {
  executor: 'pulse';
  count: number;
  everyMs: number;
  keepAlive: boolean;
  requests: Phase['requests'];
}

const pulseKind: PhaseKind<PulsePhase> = {
  executor: 'pulse',
  slots: () => 1,
  plannedMs: (p) => p.count * p.everyMs,
  expectedRequests: (p) => p.count * p.clients,
  arrivalsEndMs: () => null,
  sendsUntilMs: (p) => p.count * p.everyMs,
  plan: (p) => ({ kind: 'requests', requests: p.count * p.clients }),
  thinkMs: () => 0,
  ramp: () => undefined,
  describe: (p, w) => `${w.n('count', p.count)} pulses every ${w.ms('everyMs', p.everyMs)}`,
};

/** One request every everyMs, intended on the beat whatever the last answer took. */
class Pulse implements ExecutorState {
  readonly scheduled = true;
  readonly queueOwed = false;
  private sent = 0;
  private stopped = false;
  constructor(private readonly count: number, private readonly everyUs: number) {}
  private due(g: GroupPort): number {
    return this.stopped || this.sent >= this.count ? Infinity : g.startUs + this.sent * this.everyUs;
  }
  start(g: GroupPort): void {
    this.pump(g, g.startUs);
  }
  settled(): void {}
  pump(g: GroupPort, now: number): void {
    while (this.due(g) <= now && g.freeSlots() > 0) {
      g.issue(this.due(g));
      this.sent++;
    }
    if (this.due(g) !== Infinity) g.wake(this.due(g));
  }
  nextDue(g: GroupPort): number {
    return this.due(g);
  }
  pending(): boolean {
    return !this.stopped && this.sent < this.count;
  }
  stop(): void {
    this.stopped = true;
  }
}

const pulse: ExecutorModule<PulsePhase> = { kind: 'pulse', create: (p) => new Pulse(p.count, p.everyMs * 1000) };

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('a toy executor added through the documented steps', () => {
  it('is planned, worded and run end to end by the real driver', async () => {
    addToyExecutor(pulseKind, pulse);
    const phase: PulsePhase = { executor: 'pulse', count: 5, everyMs: 40, clients: 1, keepAlive: true, timeoutMs: 10_000, maxDurationMs: 60_000, requests: [req('/ok')] };
    // The toy has no schema entry in contract/scenario.ts: it goes where a Phase goes by a cast.
    const asPhase = phase as unknown as Phase;

    expect(planPhases([asPhase])).toEqual([{ index: 0, name: 'phase 1', executor: 'pulse', startMs: 0, durationMs: 200, expectedRequests: 5, load: '5 pulses every 40 ms' }]);
    expect([plannedMs(phase), expectedRequests(phase), progressPlan(phase), phaseName(phase, 2), describePhaseLoad({ ...phase, clients: 2 })]).toEqual([
      200, 5, { kind: 'requests', requests: 5 }, 'phase 3', '5 pulses every 40 ms × 2 clients',
    ]);

    server = await startTestServer();
    const rows: RequestRow[] = [];
    const ends: DriverPhaseResult[] = [];
    const runner = new Runner({ baseUrl: server.url, phases: [asPhase] }, (msg) => {
      if (msg.type === 'rows') for (let i = 0; i < msg.count; i++) rows.push(readRow(msg.rows, i));
      else if (msg.type === 'phase-end') ends.push(msg.result);
    });
    const result = await runner.run();
    expect(result.cancelled).toBe(false);
    expect(ends.map((e) => [e.result.name, e.result.count])).toEqual([['phase 1', 5]]);
    expect(rows.filter((r) => r.status === 200)).toHaveLength(5);
    // intended on the beat: 40 ms apart, whatever the answers took
    const intended = rows.map((r) => r.intendedUs).sort((a, b) => a - b);
    expect(intended.slice(1).map((t, i) => Math.round((t - intended[i]!) / 1000))).toEqual([40, 40, 40, 40]);
  });
});
