import type { ServerTiming } from '../server-timing.js';

/** Parses our servers' Server-Timing header back (servers/server-timing.ts writes it); undefined when a part is missing. */
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
