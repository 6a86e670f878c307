// `Server-Timing: wait;dur=X, proc;dur=Y` (ms, 3 decimals), on every response of every architecture:
// wait = from the front process accepting the request to a worker starting it; proc = the work itself.

export interface ServerTiming {
  waitMs: number;
  procMs: number;
}

export const SERVER_TIMING_HEADER = 'Server-Timing';

function ms(value: number): string {
  return (Number.isFinite(value) && value > 0 ? value : 0).toFixed(3);
}

export function formatServerTiming(timing: ServerTiming): string {
  return `wait;dur=${ms(timing.waitMs)}, proc;dur=${ms(timing.procMs)}`;
}
