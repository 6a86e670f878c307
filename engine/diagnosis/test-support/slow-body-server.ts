import { later, serveOnLoopback, type FixtureServer } from './loopback-fixture.js';

// A target that answers at once and then sends a large body slowly, the way a thin link delivers a
// big download: the headers (with Server-Timing proc, the ~0 ms it worked) and the first chunk at
// once, then one CHUNK_BYTES chunk every CHUNK_MS (timers, not the CPU, so a busy machine only makes
// the body slower). Time to first byte stays small; the transfer is ~CHUNKS x CHUNK_MS. Bound to 127.0.0.1.

export const CHUNK_BYTES = 16 * 1024;
export const CHUNKS = 16;
export const CHUNK_MS = 10;

export function startSlowBodyServer(): Promise<FixtureServer> {
  const chunk = Buffer.alloc(CHUNK_BYTES, 'x');
  const timers = new Set<NodeJS.Timeout>();
  return serveOnLoopback((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(CHUNK_BYTES * CHUNKS), 'server-timing': 'proc;dur=0.1' });
    let sent = 0;
    const next = (): void => {
      res.write(chunk);
      if (++sent === CHUNKS) res.end();
      else later(timers, CHUNK_MS, next);
    };
    next();
  }, timers);
}
