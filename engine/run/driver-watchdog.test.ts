import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Phase } from '../../contract/scenario.js';
import { runDriver, STALL_WINDOWS } from '../driver/driver.js';
import { closed, req } from '../driver/test-support/phases.js';
import { startBaitServer, type BaitServer } from '../driver/test-support/hostile-servers.js';
import { useTempEngine } from '../test-support/temp-engine.js';

// The main thread watches the driver's worker: one that stops reporting while a phase runs (a
// thread stuck in a synchronous loop; here a real one, a journey's regex extract that backtracks
// without end on the body a server starts sending mid-phase) is ended after STALL_WINDOWS windows
// of silence. The rows it already sent are kept, and its server run fails with one line naming the
// phase and the rows kept. Before, the run waited on the stuck thread for ever: no phase deadline
// can fire in a thread that never returns to its event loop.

const temp = useTempEngine('watchdog');
let server: BaitServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** `a+` nested under `+`, then a `b` that never comes: exponential backtracking on a run of a's */
const BACKTRACKS = '^(a+)+b';
const stuckStep = req('/', { name: 'token', extract: { var: 'token', from: 'regex', pattern: BACKTRACKS } });

describe("a driver worker stuck in a backtracking regex mid-phase (the watchdog's heartbeat: windows and row batches)", () => {
  it('in the driver, windows of 100 ms: the worker is ended, the rows it sent are kept, the failure names the phase and the rows', async () => {
    server = await startBaitServer();
    const bait = server;
    let rows = 0;
    const phase: Phase = { ...closed(1, { durationMs: 600_000, flow: true, requests: [stuckStep] }), name: 'extract' };
    const result = await runDriver(
      { baseUrl: server.url, windowMs: 100, phases: [phase] },
      {
        onRows: (b) => (rows += b.count),
        // once a window counted answers, their rows have gone too (the worker flushes rows with each window)
        onWindow: (w) => {
          if (w.count > 0) bait.bait();
        },
      },
    );
    expect(rows).toBeGreaterThan(0);
    const silentS = (STALL_WINDOWS * 100) / 1000;
    expect(result.failure).toMatch(new RegExp(`^the load driver stopped answering during phase 'extract' \\(nothing from it for ${silentS} s, \\d+\\.\\d s after the start\\); ${rows.toLocaleString('en-US')} request rows? kept$`));
    expect(result.phases).toEqual([]);
  }, 60_000);

  it("in a whole run: the server run fails with that line, and the request rows it names are in the store", async () => {
    server = await startBaitServer();
    const bait = server;
    temp.engine.subscribe((e) => {
      if (e.event === 'run:window' && e.payload.count > 0) bait.bait();
    });
    const scenario = {
      name: 'watchdog',
      servers: [{ architecture: 'external', url: server.url }],
      phases: [{ name: 'extract', executor: 'closed', users: 1, durationMs: 600_000, flow: true, requests: [{ path: '/', extract: { var: 'token', from: 'regex', pattern: BACKTRACKS } }] }],
    };
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
    await temp.engine.waitForRun(runId);
    const run = await temp.engine.handlers['runs:get']({ runId });
    const db = new Database(temp.dbPath, { readonly: true });
    const stored = db.prepare('SELECT count(*) FROM requests').pluck().get() as number;
    db.close();
    expect(stored).toBeGreaterThan(0);
    expect(run.targets[0]!.status).toBe('failed');
    expect(run.targets[0]!.reason).toMatch(new RegExp(`^the load driver stopped answering during phase 'extract' \\(nothing from it for \\d+ s, \\d+\\.\\d s after the start\\); ${stored.toLocaleString('en-US')} request rows? kept$`));
  }, 60_000);
});
