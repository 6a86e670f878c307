import type { TargetResult } from './results.js';

// Paired server runs (by name) whose loads spoke different protocols (contract/protocol.ts: h1,
// h1-tls, h2, h2c): their figures differ by the protocol as well as by whatever else changed, so
// Compare says so, one line per pair. Where either side's protocol is not known (k6, runs stored
// before it was kept, a stored word that is no protocol), nothing.

type Targets = { targets?: readonly Pick<TargetResult, 'name' | 'protocol'>[] };

export function protocolDifferenceLines(a: Targets, b: Targets, who: string): string[] {
  const known = (p: TargetResult['protocol']) => (p === 'unknown' ? null : (p ?? null));
  const spoken = new Map((a.targets ?? []).map((t) => [t.name, known(t.protocol)]));
  const lines: string[] = [];
  for (const t of b.targets ?? []) {
    const before = spoken.get(t.name) ?? null;
    const now = known(t.protocol);
    if (before !== null && now !== null && before !== now) lines.push(`${who} spoke ${now} to ${JSON.stringify(t.name)}, A spoke ${before}: the figures differ by protocol too`);
  }
  return lines;
}
