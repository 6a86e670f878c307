import { later, serveOnLoopback, type FixtureServer } from './loopback-fixture.js';

// A target with a limit: it works on at most ADMITTED requests at once (WORK_MS each, a timer) and
// answers 503 to one that arrives while that many are admitted, after the same WORK_MS, so a refused
// user does not spin. At 1 user nothing fails; at 8 at most 3 of the 8 are refused at any moment
// (a refusal happens only with ADMITTED admitted), so the failed share stays near 3/8 and under
// early-errors' half. WORK_MS is long beside a busy machine's stalls of the generator (seen: 70 ms
// at p99 after refusals, which go through its scheduler), so its tail stays the server's. Reports
// its time as Server-Timing proc. Bound to 127.0.0.1.

export const ADMITTED = 5;
export const WORK_MS = 100;

export function startRefuseWhenBusyServer(): Promise<FixtureServer> {
  let admitted = 0;
  const timers = new Set<NodeJS.Timeout>();
  return serveOnLoopback((req, res) => {
    req.resume();
    const started = performance.now();
    const ok = admitted < ADMITTED;
    if (ok) admitted++;
    later(timers, WORK_MS, () => {
      if (ok) admitted--;
      const body = ok ? 'ok' : 'busy';
      res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain', 'content-length': String(body.length), 'server-timing': `proc;dur=${(performance.now() - started).toFixed(3)}` }).end(body);
    });
  }, timers);
}
