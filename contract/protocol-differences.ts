import { targetHandshakes, type Handshakes } from './connection-figures.js';
import { STARTUP_MS } from './measurement.js';
import type { Protocol } from './protocol.js';
import { sig3 } from './report/formatters.js';
import type { PhaseResult, TargetResult } from './results.js';
import { enUsNumber } from './number-text.js';

// Paired server runs (by name) whose loads spoke different protocols (contract/protocol.ts: h1,
// h1-tls, h2, h2c): their figures differ by that as well as by whatever else changed, so Compare says
// so in one line per pair, naming the TLS handshakes a side paid and how many fell in its start-up. A
// keep-alive TLS run opens its connections in its first half-second and those requests wait for them
// (client queue: sent is stamped on a connected socket), which dominates its mean and tail; so a
// second line gives the figure with the client queue left out (sent to done = ttfb + transfer), the
// comparison without the handshake waits. Where either side's protocol is not known (k6, runs stored
// before it was kept, a stored word that is no protocol), nothing.

type Phase = Pick<PhaseResult, 'count' | 'total' | 'lag' | 'connections'>;
type Target = Pick<TargetResult, 'name' | 'protocol'> & { phases?: readonly Phase[] };
type Targets = { targets?: readonly Target[] };

/** What a server run's load spoke, in words. */
const SPOKEN: Record<Protocol, string> = { h1: 'plain HTTP/1.1', 'h1-tls': 'HTTP/1.1 over TLS', h2: 'h2 over TLS', h2c: 'h2c (h2 without TLS)' };

/** A stored protocol worth comparing: 'unknown' (a stored word that is none) and null (not kept) are not. */
const known = (p: TargetResult['protocol'] | undefined): Protocol | null => (p === 'unknown' || p === undefined ? null : p);

/** "B's times include 29 TLS handshakes (mean 51.6 ms), 29 in its first 0.5 s" */
function handshakeWords(who: string, h: Handshakes): string {
  const plural = h.opened === 1 ? 'handshake' : 'handshakes';
  const early = h.atStartup === null ? '' : `, ${enUsNumber(h.atStartup)} in its first ${STARTUP_MS / 1000} s`;
  return `${who}'s times include ${enUsNumber(h.opened)} TLS ${plural} (mean ${sig3(h.meanMs)} ms)${early}`;
}

/** Mean total and mean sent-to-done (total less client queue) over a server run's phases, weighted by their requests; null: no request. */
function meanTimes(t: Target): { total: number; fromSent: number } | null {
  let n = 0;
  let total = 0;
  let lag = 0;
  for (const p of t.phases ?? []) {
    n += p.total.count;
    total += p.total.mean * p.total.count;
    lag += p.lag.mean * p.lag.count;
  }
  return n === 0 ? null : { total: total / n, fromSent: Math.max(0, (total - lag) / n) };
}

const ratio = (b: number, a: number) => (a > 0 ? ` (x${sig3(b / a)})` : '');

export function protocolDifferenceLines(a: Targets, b: Targets, who: string): string[] {
  const before = new Map((a.targets ?? []).map((t) => [t.name, t]));
  const lines: string[] = [];
  for (const t of b.targets ?? []) {
    const other = before.get(t.name);
    const then = known(other?.protocol);
    const now = known(t.protocol);
    if (other === undefined || then === null || now === null || then === now) continue;
    const hsB = targetHandshakes(t.phases ?? []);
    const hsA = targetHandshakes(other.phases ?? []);
    const [spokeB, spokeA] = [SPOKEN[now], SPOKEN[then]];
    const paid = [hsB === null ? null : handshakeWords(who, hsB), hsA === null ? null : handshakeWords('A', hsA)].filter((s) => s !== null);
    const cost = paid.length === 0 ? 'the figures differ by protocol too' : `${paid.join('; ')}, where requests waited for their connection (client queue)`;
    lines.push(`${who} spoke ${spokeB} to ${JSON.stringify(t.name)}, A ${spokeA}: ${cost}`);
    const [meanA, meanB] = [meanTimes(other), meanTimes(t)];
    if (paid.length > 0 && meanA !== null && meanB !== null) {
      lines.push(
        `${JSON.stringify(t.name)} without the client queue (mean from sent to done, the handshake waits left out): A ${sig3(meanA.fromSent)} ms, ${who} ${sig3(meanB.fromSent)} ms${ratio(meanB.fromSent, meanA.fromSent)}; mean total with it: A ${sig3(meanA.total)} ms, ${who} ${sig3(meanB.total)} ms${ratio(meanB.total, meanA.total)}`,
      );
    }
  }
  return lines;
}
