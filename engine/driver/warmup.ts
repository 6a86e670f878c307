import { createServer, type Server, type Socket } from 'node:net';
import type { Phase } from '../../contract/scenario.js';
import { nowUs } from './clock.js';
import { expectedRequests, isOpenLoop } from '../../contract/phase.js';
import { ClientGroup } from './group.js';
import { ABORT_CANCEL } from './group-owner.js';
import { fastPathSuits, targetOf } from './transport/index.js';
import { Scheduler } from './scheduler.js';
import { PhaseStats, RowSink } from './measure/stats.js';

// A cold worker runs its first few hundred ms of requests in V8's interpreter and baseline tiers,
// and compiles the hot code (h1 parsing, scheduler, group, stats, histograms, Node's socket streams)
// on the same pinned core while the schedule is already running: most of an open-loop phase's late
// sends used to be in its first 500 ms. So before t0 the runner runs one throwaway open-loop phase
// through the very same classes (ClientGroup, Slot, H1Connection on real sockets, Scheduler,
// PhaseStats, FastHistogram, RowSink) against a canned-response server of its own on 127.0.0.1 in
// this worker: never the target. Its stats, rows (posted nowhere) and windows are dropped; nothing of
// it reaches a result, row, window or event. Bounded: WARMUP_REQUESTS arrivals, at most
// WARMUP_MAX_MS; only for a plan with a big enough open-loop phase on the fast path.
//
//   server (this worker) <── GET / ── H1Connection <── ClientGroup.pump <── Scheduler
//                        ── canned responses (content-length | chunked, Server-Timing) ──> parser

export const WARMUP_REQUESTS = 3000;
const WARMUP_RATE = 50_000;
const WARMUP_MAX_MS = 250;
/** plans whose biggest phase expects fewer requests than this are not warmed (not worth it) */
export const WARMUP_MIN_REQUESTS = 1000;

/** What a peer's responses look like: content-length and chunked bodies, with and without Server-Timing. */
const RESPONSES = [
  'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nserver-timing: wait;dur=0.010, proc;dur=0.020\r\nDate: Mon, 23 Nov 2026 12:00:00 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=60\r\nContent-Length: 11\r\n\r\nhello world',
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nServer-Timing: proc;dur=1.5, wait;dur="0.25"\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n',
  'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
  'HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\nserver-timing: proc;dur=0.005\r\n\r\nnot found',
].map((s) => Buffer.from(s, 'latin1'));
const CRLFCRLF = Buffer.from('\r\n\r\n');

/**
 * Is warming worth it for this plan: an open-loop phase (whose schedule lag a cold start shows in)
 * on the fast path, big enough? Closed-loop plans are left as they were: a caller's CPU measure
 * starts at 'started', after the warm-up, and would no longer include the cold start.
 */
export function shouldWarm(phases: readonly Phase[], baseUrl: string): boolean {
  return phases.some((p) => isOpenLoop(p) && (expectedRequests(p) ?? 0) >= WARMUP_MIN_REQUESTS && fastPathSuits(p, baseUrl));
}

/**
 * The first row batch the worker transfers detaches an ArrayBuffer, which invalidates V8's
 * "array buffer detaching" protector: every optimized function that touches a typed array or a
 * Buffer (the parser, the histograms, Node's stream internals) is thrown away at once, and the worker
 * is cold again at the first window (250 ms). Detaching one throwaway buffer first makes the
 * warm-up's optimized code the code that lasts.
 */
function detachOnce(): void {
  const b = new ArrayBuffer(8);
  structuredClone(b, { transfer: [b] });
}

function cannedServer(): { server: Server; sockets: Set<Socket> } {
  const sockets = new Set<Socket>();
  let k = 0;
  const server = createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      // pipelining is 1 and a warm-up request is one bodiless GET: one response per request head
      for (let i = chunk.indexOf(CRLFCRLF); i >= 0; i = chunk.indexOf(CRLFCRLF, i + 4)) socket.write(RESPONSES[k++ % RESPONSES.length]!);
    });
  });
  return { server, sockets };
}

/**
 * Runs the throwaway phase; resolves (never rejects) when it is done or maxMs have passed (tests
 * lift the cap to see the whole phase complete however busy the machine is).
 * Returns how many warm-up requests completed (for tests), all of them recorded only in objects that
 * are dropped here.
 */
export async function warmUp(timeoutMs: number, maxMs = WARMUP_MAX_MS): Promise<number> {
  detachOnce();
  const { server, sockets } = cannedServer();
  let timer: NodeJS.Timeout | undefined;
  const scheduler = new Scheduler();
  const stats = new PhaseStats(new RowSink(true, () => undefined));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as { port: number };
    const baseUrl = `http://127.0.0.1:${port}`;
    const phase: Phase = {
      executor: 'rate',
      rate: WARMUP_RATE,
      durationMs: Math.ceil((WARMUP_REQUESTS / WARMUP_RATE) * 1000),
      arrivals: 'uniform',
      maxInFlight: 64,
      clients: 1,
      keepAlive: true,
      timeoutMs,
      maxDurationMs: maxMs,
      requests: [{ method: 'GET', path: '/', headers: {}, weight: 1 }],
    };
    await new Promise<void>((resolve) => {
      const owner = { stats, groupFinished: () => resolve() };
      const group = new ClientGroup(0, 0, phase, nowUs(), targetOf({ baseUrl }), scheduler, owner);
      timer = setTimeout(() => group.abort(ABORT_CANCEL), maxMs);
      group.start();
    });
    // the live-window path, on the throwaway stats
    for (let i = 0; i < 4; i++) stats.takeWindow(0, i * 250, 250, 0, 0);
    return stats.count;
  } catch {
    return stats.count;
  } finally {
    clearTimeout(timer);
    scheduler.stop();
    for (const s of sockets) s.destroy();
    server.close();
  }
}
