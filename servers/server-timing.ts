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

/** Parses the header back (tests, and anyone reading our servers); undefined when a part is missing. */
export function parseServerTiming(header: string | null | undefined): ServerTiming | undefined {
  if (!header) return undefined;
  const values = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().split(';');
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'dur' && name && value !== undefined) values.set(name.trim(), Number(value));
    }
  }
  const waitMs = values.get('wait');
  const procMs = values.get('proc');
  if (waitMs === undefined || procMs === undefined || Number.isNaN(waitMs) || Number.isNaN(procMs)) return undefined;
  return { waitMs, procMs };
}
