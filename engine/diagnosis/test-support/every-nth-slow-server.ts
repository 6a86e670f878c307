import { later, serveOnLoopback, type FixtureServer } from './loopback-fixture.js';

// A target that is fast except on every SLOW_EVERY-th request, which it holds SLOW_MS (a timer): 5 %
// of requests in a slow band far from the rest, deterministically, whatever the machine's load (a
// late timer only makes the slow band slower). SLOW_MS is far above the fast band's smear on a busy
// machine (the process's stalls lift fast answers by tens of ms, a few by a couple of hundred), so
// the valley between the bands stays empty. Reports its time as Server-Timing proc. Bound to 127.0.0.1.

export const SLOW_EVERY = 20;
export const SLOW_MS = 1000;

export function startEveryNthSlowServer(): Promise<FixtureServer> {
  let seen = 0;
  const timers = new Set<NodeJS.Timeout>();
  return serveOnLoopback((req, res) => {
    req.resume();
    const started = performance.now();
    const answer = (): void => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2', 'server-timing': `proc;dur=${(performance.now() - started).toFixed(3)}` }).end('ok');
    };
    if (++seen % SLOW_EVERY === 0) later(timers, SLOW_MS, answer);
    else answer();
  }, timers);
}
