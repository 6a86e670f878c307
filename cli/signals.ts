import { constants } from 'node:os';

// The signals that stop a verb that runs load (run, reproduce, ui): each is handled like Ctrl-C
// (stop issuing, flush what was measured, store the run as cancelled naming the signal) and the
// process exits 128+n as a shell expects. Handlers stay installed until the process ends, so a
// second signal cannot kill it halfway through stopping servers.

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** Calls handler on each stop signal; returns a function that removes the handlers. */
export function onStopSignal(handler: (signal: StopSignal) => void): () => void {
  const listeners = STOP_SIGNALS.map((name) => [name, () => handler(name)] as const);
  for (const [name, listener] of listeners) process.on(name, listener);
  return () => {
    for (const [name, listener] of listeners) process.off(name, listener);
  };
}

export function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

export function cancelReason(signal: StopSignal): string {
  return signal === 'SIGINT' ? 'cancelled by the user (SIGINT)' : `cancelled by ${signal}`;
}
