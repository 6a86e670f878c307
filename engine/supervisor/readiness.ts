import http from 'node:http';
import type { ChildProcess } from 'node:child_process';
import type { ServerReadyMessage } from '../../contract/servers.js';
import type { OutputTail } from './output.js';

// Readiness checks, each a promise that settles once; the caller races them against the process
// exiting, a deadline and cancellation (supervisor.ts), and calls `cancel` to drop the listeners.

export interface Check<T> {
  done: Promise<T>;
  cancel(): void;
}

const POLL_MS = 100;

/** Any HTTP answer at url (whatever the status) means ready. */
export function pollUrl(url: string): Check<void> {
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  let req: http.ClientRequest | undefined;
  const done = new Promise<void>((resolve) => {
    const attempt = () => {
      if (cancelled) return;
      req = http.get(url, { agent: false, timeout: 1000 }, (res) => {
        res.resume();
        resolve();
      });
      req.on('timeout', () => req?.destroy());
      req.on('error', () => {
        if (!cancelled) timer = setTimeout(attempt, POLL_MS);
      });
    };
    attempt();
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
