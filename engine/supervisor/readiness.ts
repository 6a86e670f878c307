import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { ChildProcess } from 'node:child_process';
import { LoadscopeError } from '../../contract/errors.js';
import type { ServerReadyMessage } from '../../contract/servers.js';
import { checkLiteralTarget, guardedLookup } from '../net/target-guard.js';
import type { OutputTail } from './output.js';

// Readiness checks, each a promise that settles once; the caller races them against the process
// exiting, a deadline and cancellation (supervisor.ts), and calls `cancel` to drop the listeners.

export interface Check<T> {
  done: Promise<T>;
  cancel(): void;
}

const POLL_MS = 100;

/** What an https target asks of a client before it answers: shown by the readiness probe as by the load. */
export interface ReadinessTls {
  cert?: string;
  key?: string;
  servername?: string;
}

/**
 * A TLS alert is the server itself refusing this client (no client certificate, one it does not
 * trust, an SNI name it has no certificate for): it will not answer however long it is asked.
 */
function refusedHandshake(url: string, err: Error & { code?: string; reason?: string }): LoadscopeError | null {
  if (err.code !== 'EPROTO' && !err.code?.startsWith('ERR_SSL_')) return null;
  // OpenSSL's words for it: "tlsv13 alert certificate required", "sslv3 alert handshake failure"
  const alert = /(?:^|:)\s*([^:]*\balert\b[^:]*)/i.exec(err.reason ?? err.message)?.[1];
  if (alert === undefined) return null;
  return new LoadscopeError('LS_ERR_TLS', `${new URL(url).origin} refused the TLS handshake (${alert}); it may ask for a client certificate it trusts (tls.cert and tls.key) or an SNI name (tls.servername)`);
}

/**
 * Any HTTP answer at url (whatever the status) means ready. The probe connects only to this machine
 * (checked on the resolved address) unless allowRemote; a refusal rejects at once instead of polling,
 * as does a server that refuses the TLS handshake (an https target gets the load's client
 * certificate and SNI name, `tls`, so one that asks for them answers the probe).
 */
export function pollUrl(url: string, allowRemote = false, tls: ReadinessTls = {}): Check<void> {
  const lookup = guardedLookup(allowRemote);
  return pollEvery(url, allowRemote, (ready, retry, fail) => {
    const onResponse = (res: http.IncomingMessage): void => {
      res.resume();
      ready();
    };
    // an https target is ready once it answers: its certificate is judged by the load's own check
    const req = url.startsWith('https:') ? https.get(url, { agent: false, timeout: 1000, lookup, rejectUnauthorized: false, ...tls }, onResponse) : http.get(url, { agent: false, timeout: 1000, lookup }, onResponse);
    req.on('timeout', () => req.destroy());
    req.on('error', (err: Error & { code?: string }) => {
      const refused = refusedHandshake(url, err);
      if (err.code === 'LS_ERR_NOT_LOOPBACK') fail(err);
      else if (refused !== null) fail(refused);
      else retry();
    });
    return () => req.destroy();
  });
}

/**
 * pollUrl for a target the load speaks h2c to (prior knowledge): any HTTP/2 answer at url means ready.
 * A gRPC server answers HTTP/2 only, so an HTTP/1.1 probe would never see it ready. Same guard.
 */
export function pollH2c(url: string, allowRemote = false): Check<void> {
  const lookup = guardedLookup(allowRemote);
  return pollEvery(url, allowRemote, (ready, retry, fail) => {
    const { origin, pathname, search } = new URL(url);
    const s = http2.connect(origin, { lookup });
    const again = (err?: Error & { code?: string }): void => {
      s.destroy();
      if (err?.code === 'LS_ERR_NOT_LOOPBACK') fail(err);
      // something answered, but not in HTTP/2 (an HTTP/1.1 server replies to the preface with a 400):
      // asking again until the deadline would only end in "nothing answered"
      else if (err?.code === 'ERR_HTTP2_ERROR') fail(new LoadscopeError('LS_ERR_SERVER_START', `${origin} answered, but not in HTTP/2 with prior knowledge (protocol 'h2c'): it may speak HTTP/1.1 only (drop protocol) or h2 over TLS only (an https:// url with protocol 'h2')`));
      else retry();
    };
    s.on('error', again);
    s.setTimeout(1000, () => again());
    const req = s.request({ ':path': `${pathname}${search}` });
    req.on('response', () => {
      s.destroy();
      ready();
    });
    req.on('error', () => undefined);
    req.end();
    return () => s.destroy();
  });
}

/** One probe of a poll: calls `ready`, `retry` (probe again after POLL_MS) or `fail`; answers how to stop it. */
type Probe = (ready: () => void, retry: () => void, fail: (err: Error) => void) => () => void;

/** What pollUrl and pollH2c share: the literal target checked first, then a probe every POLL_MS until one answers or fails. */
function pollEvery(url: string, allowRemote: boolean, probe: Probe): Check<void> {
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  let stopProbe: () => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    const attempt = (): void => {
      if (cancelled) return;
      stopProbe = probe(resolve, () => {
        if (!cancelled) timer = setTimeout(attempt, POLL_MS);
      }, reject);
    };
    try {
      checkLiteralTarget(url, allowRemote);
      attempt();
    } catch (err) {
      reject(err as Error);
    }
  });
  return {
    done,
    cancel() {
      cancelled = true;
      clearTimeout(timer);
      stopProbe();
    },
  };
}

/** A stdout/stderr line matching pattern. */
export function waitForLine(output: OutputTail, pattern: RegExp): Check<string> {
  let off: () => void = () => undefined;
  const done = new Promise<string>((resolve) => {
    off = output.onLine((line) => {
      if (pattern.test(line)) {
        off();
        resolve(line);
      }
    });
  });
  return { done, cancel: () => off() };
}

export function isReadyMessage(message: unknown): message is ServerReadyMessage {
  if (typeof message !== 'object' || message === null) return false;
  if (!('type' in message) || message.type !== 'ready' || !('port' in message) || !('pid' in message)) return false;
  if (typeof message.pid !== 'number') return false;
  const port = message.port;
  return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536;
}

/** The bundled servers' IPC ready message. */
export function waitForReadyMessage(child: ChildProcess): Check<ServerReadyMessage> {
  let listener: ((message: unknown) => void) | undefined;
  const done = new Promise<ServerReadyMessage>((resolve) => {
    listener = (message: unknown) => {
      if (isReadyMessage(message)) resolve(message);
    };
    child.on('message', listener);
  });
  return {
    done,
    cancel: () => {
      if (listener) child.off('message', listener);
    },
  };
}
