import { AsyncLocalStorage } from 'node:async_hooks';

// No call on a host may end the host process. A handler's rejection is that call's error already; an
// exception thrown from a callback the handler started (a stream's 'data' handler, a timer) is not:
// it is uncaught and Node ends the process. While a host is up, an uncaught exception is captured
// and, through the call's async context, made that call's error. One that belongs to no call gets
// Node's own treatment (uncaughtException listeners, else the stack and exit code 1).

interface CallScope {
  name: string;
  fail(err: unknown): void;
}

const scopes = new AsyncLocalStorage<CallScope>();
let users = 0;
let installed = false;

function capture(err: unknown): void {
  const scope = scopes.getStore();
  if (scope) return scope.fail(err);
  if (process.listenerCount('uncaughtException') > 0) {
    const error = err instanceof Error ? err : new Error(String(err));
    for (const listener of process.listeners('uncaughtException')) listener(error, 'uncaughtException');
    return;
  }
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
}

/** Captures uncaught exceptions while at least one host holds the guard; returns its release. */
export function holdCallGuard(): () => void {
  // Another owner of Node's one capture slot (a domain) keeps it; calls are then guarded by their promise only.
  if (users++ === 0 && !process.hasUncaughtExceptionCaptureCallback()) {
    process.setUncaughtExceptionCaptureCallback(capture);
    installed = true;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--users === 0 && installed) {
      process.setUncaughtExceptionCaptureCallback(null);
      installed = false;
    }
  };
}

/**
 * Runs one call: its result, or its error, whether the handler rejected, threw, or something it
 * started threw later. An error after the call has answered goes to stderr as one line.
 */
export function guardCall<T>(name: string, run: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return false;
      settled = true;
      fn();
      return true;
    };
    const scope: CallScope = {
      name,
      fail: (err) => {
        if (!settle(() => reject(err))) {
          const message = err instanceof Error ? err.message : String(err);
          process.stderr.write(`loadscope: an error after the call ${name} had answered: ${message.split('\n')[0]}\n`);
        }
      },
    };
    scopes.run(scope, () => {
      try {
        run().then(
          (value) => settle(() => resolve(value)),
          (err: unknown) => scope.fail(err),
        );
      } catch (err) {
        scope.fail(err);
      }
    });
  });
}
