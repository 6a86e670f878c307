import { describe, expect, it } from 'vitest';
import type { ConnectionFigures, PhaseResult, RunSummary, TargetResult } from '../../contract/results.js';
import { scenarioDifferences, scenarioDifferenceText } from '../../contract/scenario-differences.js';
import { phaseResult, stats } from '../../db/test-support/factories.js';
import { prepareScenario } from '../scenario/prepare.js';

// Compare says when paired server runs' loads spoke different protocols or one paid TLS (issues 28
// and 36): the same scenario text against a target that answered h2 over TLS once and plain
// HTTP/1.1 once is not the same load. The line names the handshakes the TLS side paid, how many in
// its first half-second (where its requests waited for their connection: client queue), and a
// second line gives the means with the client queue left out, so the start-up storm does not
// decide the ratio unsaid.

const input = {
  name: 'over-tls',
  servers: [{ label: 'api', architecture: 'external', url: 'https://127.0.0.1:8443', protocol: 'h2' }],
  phases: [{ name: 'load', executor: 'closed', users: 2, count: 20, requests: [{ path: '/' }] }],
};

type Run = Pick<RunSummary, 'id' | 'scenarioName' | 'scenario' | 'quick' | 'targets'>;
function run(id: number, protocol: string | null, name = 'api', phases: PhaseResult[] = []): Run {
  const { scenario } = prepareScenario(input, 'the scenario');
  const target = { name, protocol, phases } as unknown as TargetResult;
  return { id, scenarioName: scenario.name, scenario, quick: false, targets: [target] };
}

/** A phase of 1,000 requests: mean total `totalMs`, of which `lagMs` client queue, and its TLS connections if any. */
function phase(totalMs: number, lagMs: number, connections?: ConnectionFigures): PhaseResult {
  return phaseResult(0, { count: 1000, total: stats(totalMs, 1000), lag: stats(lagMs, 1000), ...(connections && { connections }) });
}
const tls = (opened: number, handshakeMs: number, atStartup?: number): ConnectionFigures => ({ opened, connect: stats(0.2, opened), handshake: stats(handshakeMs, opened), ...(atStartup !== undefined && { atStartup }) });

describe('protocols of paired runs', () => {
  it('h2 in A, HTTP/1.1 over TLS in B: the same scenario, run differently, one line naming both', () => {
    expect(scenarioDifferences([run(1, 'h2'), run(2, 'h1-tls')])).toEqual([
      { run: 1, who: 'B (#2)', sameScenario: true, lines: ['B spoke HTTP/1.1 over TLS to "api", A h2 over TLS: the figures differ by protocol too'] },
    ]);
    expect(scenarioDifferenceText([run(1, 'h2'), run(2, 'h1-tls')])).toEqual(['B (#2), the same scenario run differently: B spoke HTTP/1.1 over TLS to "api", A h2 over TLS: the figures differ by protocol too']);
  });

  it('the same protocol, an unknown one (k6, older runs) or an unpaired server: nothing to say', () => {
    expect(scenarioDifferences([run(1, 'h2'), run(2, 'h2')])).toEqual([]);
    expect(scenarioDifferences([run(1, null), run(2, 'h2')])).toEqual([]);
    expect(scenarioDifferences([run(1, 'unknown'), run(2, 'h2')])).toEqual([]);
    expect(scenarioDifferences([run(1, 'h2'), run(2, 'h1-tls', 'other')])).toEqual([]);
  });

  it('plain HTTP/1.1 in A, h2 over TLS with a start-up storm in B: the handshakes B paid, those in its first 0.5 s, and the means without the client queue', () => {
    const a = run(1, 'h1', 'api', [phase(1.2, 0.1)]);
    const b = run(2, 'h2', 'api', [phase(9.8, 8.5, tls(29, 51.6, 29))]);
    expect(scenarioDifferences([a, b])[0]!.lines).toEqual([
      'B spoke h2 over TLS to "api", A plain HTTP/1.1: B\'s times include 29 TLS handshakes (mean 51.6 ms), 29 in its first 0.5 s, where requests waited for their connection (client queue)',
      '"api" without the client queue (mean from sent to done, the handshake waits left out): A 1.1 ms, B 1.3 ms (x1.18); mean total with it: A 1.2 ms, B 9.8 ms (x8.17)',
    ]);
  });

  it('HTTP/1.1 both times, over TLS in B only (h1 against h1-tls): a difference', () => {
    const a = run(1, 'h1', 'api', [phase(1, 0.1)]);
    const b = run(2, 'h1-tls', 'api', [phase(3, 1.5, tls(4, 20))]);
    const [line] = scenarioDifferences([a, b])[0]!.lines;
    // a run stored before start-up handshakes were counted: the count and mean, no claim about when
    expect(line).toBe('B spoke HTTP/1.1 over TLS to "api", A plain HTTP/1.1: B\'s times include 4 TLS handshakes (mean 20 ms), where requests waited for their connection (client queue)');
  });

  it('over TLS on both sides with the same protocol: nothing to say', () => {
    expect(scenarioDifferences([run(1, 'h2', 'api', [phase(2, 1, tls(2, 5, 2))]), run(2, 'h2', 'api', [phase(2, 1, tls(3, 5, 3))])])).toEqual([]);
  });
});
