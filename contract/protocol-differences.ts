import type { TargetResult } from './results.js';

// Paired server runs (by name) whose loads spoke different protocols ('http/1.1', 'h2', 'h2c'): their
// figures differ by the protocol as well as by whatever else changed, so Compare says so, one line
// per pair. Where either side's protocol is unknown (k6, runs stored before it was kept), nothing.

type Targets = { targets?: readonly Pick<TargetResult, 'name' | 'protocol'>[] };

export function protocolDifferenceLines(a: Targets, b: Targets, who: string): string[] {
  const spoken = new Map((a.targets ?? []).map((t) => [t.name, t.protocol ?? null]));
  const lines: string[] = [];
  for (const t of b.targets ?? []) {
    const before = spoken.get(t.name) ?? null;
    const now = t.protocol ?? null;
    if (before !== null && now !== null && before !== now) lines.push(`${who} spoke ${now} to ${JSON.stringify(t.name)}, A spoke ${before}: the figures differ by protocol too`);
  }
  return lines;
}
