import type { LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type WebSocket from 'ws';
import { jsonAt, parseJsonPath, type JsonKey } from '../../../contract/extract.js';
import { ws as wsPackage } from './packages.js';
import { SilenceTimer } from './silence-timer.js';
import { STREAM_ERROR_CODES } from './stream.js';

// One WebSocket session of one virtual user: the upgrade, then a script of steps (send, wait for a
// reply that matches, ping), then receiving only until the session's hold ends. What it measures goes
// to an observer as it happens (no per-session arrays: a flood costs counters, not memory).
//
//   new WebSocket ─ open (connectMs) ─ step 1 ─ step 2 ─ … ─ hold: receive only ─ close ─ end(error|null)
//                   └── any time: a deadline, a frame over maxPayload, maxMessages, a close ─ end(error)
//
// Bounds: the upgrade has connectTimeoutMs; every wait (a reply, a pong, the gap between messages
// while holding) has its own deadline; a message over maxPayload is refused by ws itself before it is
// buffered (close 1009); a session ends after maxMessages received or at sessionMs, whichever first.
// Errors carry codes measure/errors.ts classifies (WS_CODES).

/** What a reply must hold to match: text it includes, and/or the text at a JSON path (equal to `equals` when given). */
export interface WsMatch {
  readonly includes?: string;
  readonly path?: string;
  readonly equals?: string;
}

/**
 * One step of a session's script: a `send` (text), then with `expect` the wait for the first message
 * that matches (its round trip timed); an `expect` alone (a subscription's first event); or a `ping`
 * whose pong is waited for. contract/stream-ws.ts checks that a step is one of these.
 */
export interface WsStep {
  readonly send?: string | undefined;
  readonly expect?: WsMatch | undefined;
  readonly ping?: true | undefined;
  readonly timeoutMs?: number | undefined;
}

export interface WsSessionSpec {
  /** ws:// or wss:// */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** node:tls options for wss (tls.ts tlsConnectOptions) */
  readonly tls?: ConnectionOptions;
  /** the guarded lookup (engine/net/target-guard.ts): load goes to loopback only unless allowed */
  readonly lookup?: LookupFunction;
  readonly connectTimeoutMs: number;
  /** the default deadline of a step's wait */
  readonly replyTimeoutMs: number;
  readonly steps: readonly WsStep[];
  /** the session stays open receiving until this long after its upgrade, or until its script ends if later (0: closes when the script ends) */
  readonly holdMs: number;
  /** after the script, a gap between messages over this fails the session (absent: gaps are not limited: an idle session is fine) */
  readonly gapLimitMs?: number;
  /** while holding, a ping this often, its pong due within replyTimeoutMs (a keep-alive that also finds a dead peer) */
  readonly pingEveryMs?: number;
  /** the largest message ws accepts (its maxPayload); a larger frame closes the session with 1009 */
  readonly maxPayload: number;
  /** received messages after which the session ends as a flood */
  readonly maxMessages: number;
}

/** What a session reports as it runs. Times in ms. */
export interface WsObserver {
  /** the upgrade was answered 101, connectMs after the session started */
  onOpen(connectMs: number): void;
  /** a message arrived now; `rttMs` from the send it answers when it matched a step's expect, else NaN */
  onMessage(bytes: number, rttMs: number): void;
  /** a step's ping was answered, rttMs after it went */
  onPong(rttMs: number): void;
  onSent(bytes: number): void;
}

/** The codes a session fails with; measure/errors.ts classifies them as the kinds beside (a stream's own, transport/stream.ts). */
export const WS_CODES = {
  /** the upgrade, a reply, a pong or the next message did not come within its wait (idle) */
  wait: STREAM_ERROR_CODES.idle,
  /** the server closed or cut the session before the script and hold ended (stream) */
  closed: STREAM_ERROR_CODES.cut,
  /** more messages than maxMessages (protocol: the peer floods) */
  flood: STREAM_ERROR_CODES.overBound,
  /** the upgrade was answered with another status (http) */
  upgrade: 'LS_WS_UPGRADE',
} as const;

function wsError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

interface CompiledMatch {
  readonly includes: string | undefined;
  readonly path: readonly JsonKey[] | undefined;
  readonly equals: string | undefined;
}

/** A match's JSON path parsed once; throws on a path that is not one (the contract's schema refuses it first). */
export function compileMatch(m: WsMatch): CompiledMatch {
  let path: JsonKey[] | undefined;
  if (m.path !== undefined) {
    const keys = parseJsonPath(m.path);
    if (typeof keys === 'string') throw new Error(`ws expect.path ${JSON.stringify(m.path)}: ${keys}`);
    path = keys;
  }
  return { includes: m.includes, path, equals: m.equals };
}

/** Whether a message's text matches. JSON is parsed only when the match reads a path. */
export function matches(m: CompiledMatch, text: string): boolean {
  if (m.includes !== undefined && !text.includes(m.includes)) return false;
  if (m.path === undefined) return true;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  const at = jsonAt(value, m.path);
  return at !== null && (m.equals === undefined || at === m.equals);
}

/**
 * Runs one session; resolves with null when the script and hold ended well, else the error it ended
 * with (never rejects). `signal` ends it early (a stop): resolved with null, the socket dropped.
 */
export function runWsSession(spec: WsSessionSpec, observer: WsObserver, signal?: AbortSignal): Promise<Error | null> {
  return new Promise((resolve) => {
    const started = performance.now();
    const steps = spec.steps.map((s) => ({ step: s, match: s.expect === undefined ? null : compileMatch(s.expect) }));
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    let stepAt = -1;
    let waiting: { match: CompiledMatch | null; since: number; pong: boolean } | null = null;
    let holding = false;
    let gapTimer: SilenceTimer | undefined;
    let keepAlive: NodeJS.Timeout | undefined;
    let pongDue: NodeJS.Timeout | undefined;
    let received = 0;

    const ws = new (wsPackage())(spec.url, {
      maxPayload: spec.maxPayload,
      perMessageDeflate: false,
      followRedirects: false,
      headers: { ...spec.headers },
      ...(spec.lookup !== undefined && { lookup: spec.lookup }),
      ...spec.tls,
    });

    const end = (err: Error | null): void => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      gapTimer?.stop();
      clearInterval(keepAlive);
      clearTimeout(pongDue);
      signal?.removeEventListener('abort', onAbort);
      if (err === null && ws.readyState === ws.OPEN) ws.close(1000);
      else ws.terminate();
      resolve(err);
    };
    const onAbort = (): void => end(null);
    if (signal?.aborted) return end(null);
    signal?.addEventListener('abort', onAbort, { once: true });
    const deadline = (ms: number, what: string): void => {
      clearTimeout(timer);
      timer = setTimeout(() => end(wsError(WS_CODES.wait, `${what} did not come within ${ms} ms`)), ms);
    };

    // the upgrade's deadline: TCP, TLS and the 101 together
    deadline(spec.connectTimeoutMs, 'the upgrade (101)');

    const next = (): void => {
      stepAt++;
      const entry = steps[stepAt];
      if (entry === undefined) return hold();
      const { step, match } = entry;
      const ms = step.timeoutMs ?? spec.replyTimeoutMs;
      if (step.ping === true) {
        waiting = { match: null, since: performance.now(), pong: true };
        ws.ping();
        deadline(ms, `the pong of step ${stepAt + 1}`);
        return;
      }
      if (step.send !== undefined) {
        ws.send(step.send);
        observer.onSent(Buffer.byteLength(step.send));
      }
      if (match === null) return next();
      waiting = { match, since: performance.now(), pong: false };
      deadline(ms, `a reply matching step ${stepAt + 1}`);
    };

    const hold = (): void => {
      holding = true;
      const left = openedAt + spec.holdMs - performance.now();
      if (left <= 0) return end(null);
      clearTimeout(timer);
      timer = setTimeout(() => end(null), left);
      if (spec.gapLimitMs !== undefined) {
        const limit = spec.gapLimitMs;
        gapTimer = new SilenceTimer(limit, () => end(wsError(WS_CODES.wait, `no message within ${limit} ms (gapLimitMs)`)));
      }
      if (spec.pingEveryMs !== undefined) keepAlive = setInterval(holdPing, spec.pingEveryMs);
    };
    // one keep-alive ping at a time: the next waits for the last's pong
    const holdPing = (): void => {
      if (pongDue !== undefined) return;
      ws.ping();
      pongDue = setTimeout(() => end(wsError(WS_CODES.wait, `no pong within ${spec.replyTimeoutMs} ms of a keep-alive ping`)), spec.replyTimeoutMs);
    };

    let openedAt = Number.NaN;
    ws.on('open', () => {
      clearTimeout(timer);
      openedAt = performance.now();
      observer.onOpen(openedAt - started);
      next();
    });
    ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      if (ended) return;
      const now = performance.now();
      const bytes = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
      if (++received > spec.maxMessages) return end(wsError(WS_CODES.flood, `more than ${spec.maxMessages} messages in one session (maxMessages)`));
      // binary messages are counted; only text is matched
      const matched = waiting?.match != null && !isBinary && matches(waiting.match, data.toString());
      observer.onMessage(bytes, matched ? now - waiting!.since : Number.NaN);
      // after the slot timed the message: the gap the limit ends is never shorter than the limit
      gapTimer?.touch();
      if (!matched) return;
      waiting = null;
      next();
    });
    ws.on('pong', () => {
      if (holding) {
        clearTimeout(pongDue);
        pongDue = undefined;
      }
      if (ended || waiting === null || !waiting.pong) return;
      observer.onPong(performance.now() - waiting.since);
      waiting = null;
      next();
    });
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      end(wsError(WS_CODES.upgrade, `the upgrade was answered ${res.statusCode ?? 0}, not 101`));
    });
    // ws's own codes (WS_ERR_*: a frame over maxPayload, bad UTF-8, bad framing) and node's (ECONNREFUSED, ...) pass through
    ws.on('error', (err) => end(err));
    ws.on('close', (code) => {
      end(wsError(WS_CODES.closed, `the server closed the session (${code}) before it ended`));
    });
  });
}
