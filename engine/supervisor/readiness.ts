import http from 'node:http';
import https from 'node:https';
import type { ChildProcess } from 'node:child_process';
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

/**
 * Any HTTP answer at url (whatever the status) means ready. The probe connects only to this machine
 * (checked on the resolved address) unless allowRemote; a refusal rejects at once instead of polling.
 */
export function pollUrl(url: string, allowRemote = false): Check<void> {
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  let req: http.ClientRequest | undefined;
  const lookup = guardedLookup(allowRemote);
  const done = new Promise<void>((resolve, reject) => {
    const attempt = () => {
      if (cancelled) return;
      const onResponse = (res: http.IncomingMessage): void => {
        res.resume();
        resolve();
      };
      // an https target is ready once it answers: its certificate is judged by the load's own check
      req = url.startsWith('https:') ? https.get(url, { agent: false, timeout: 1000, lookup, rejectUnauthorized: false }, onResponse) : http.get(url, { agent: false, timeout: 1000, lookup }, onResponse);
      req.on('timeout', () => req?.destroy());
      req.on('error', (err: Error & { code?: string }) => {
        if (err.code === 'LS_ERR_NOT_LOOPBACK') reject(err);
        else if (!cancelled) timer = setTimeout(attempt, POLL_MS);
      });
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
      req?.destroy();
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
