import { describe, expect, it } from 'vitest';
import type { RunSummary, TargetResult } from '../../contract/results.js';
import { scenarioDifferences, scenarioDifferenceText } from '../../contract/scenario-differences.js';
import { prepareScenario } from '../scenario/prepare.js';

// Compare warns when paired server runs' loads spoke different protocols (issue 28): the same
// scenario text against a target that answered h2 once and HTTP/1.1 once is not the same load.

const input = {
  name: 'over-tls',
  servers: [{ label: 'api', architecture: 'external', url: 'https://127.0.0.1:8443', protocol: 'h2' }],
  phases: [{ name: 'load', executor: 'closed', users: 2, count: 20, requests: [{ path: '/' }] }],
};

type Run = Pick<RunSummary, 'id' | 'scenarioName' | 'scenario' | 'quick' | 'targets'>;
function run(id: number, protocol: string | null, name = 'api'): Run {
  const { scenario } = prepareScenario(input, 'the scenario');
  const target = { name, protocol } as TargetResult;
  return { id, scenarioName: scenario.name, scenario, quick: false, targets: [target] };
}

describe('protocols of paired runs', () => {
  it('h2 in A, http/1.1 in B: the same scenario, run differently, one line naming both', () => {
    expect(scenarioDifferences([run(1, 'h2'), run(2, 'h1-tls')])).toEqual([
      { run: 1, who: 'B (#2)', sameScenario: true, lines: ['B spoke h1-tls to "api", A spoke h2: the figures differ by protocol too'] },
    ]);
    expect(scenarioDifferenceText([run(1, 'h2'), run(2, 'h1-tls')])).toEqual(['B (#2), the same scenario run differently: B spoke h1-tls to "api", A spoke h2: the figures differ by protocol too']);
  });

  it('the same protocol, an unknown one (k6, older runs) or an unpaired server: nothing to say', () => {
    expect(scenarioDifferences([run(1, 'h2'), run(2, 'h2')])).toEqual([]);
    expect(scenarioDifferences([run(1, null), run(2, 'h2')])).toEqual([]);
    expect(scenarioDifferences([run(1, 'unknown'), run(2, 'h2')])).toEqual([]);
    expect(scenarioDifferences([run(1, 'h2'), run(2, 'h1-tls', 'other')])).toEqual([]);
  });
});
