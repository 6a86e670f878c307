import { otherHostsKeptIn } from '../../contract/imported-hosts.js';
import { errorRate } from './figures-in.js';
import type { DiagnosisRule } from './stored-run.js';

// A scenario imported with `import-har --all-hosts` sends the requests captured for other hosts (a
// CDN, an analytics or auth service) to its one server, which is not where they belong: their
// figures measure the wrong server, and they usually fail there. The import says so in the
// scenario's description (contract/imported-hosts.ts), which the stored run keeps.

/** An endpoint failed where at least this share of its requests did: requests sent to a server that does not serve them. */
export const FAILED_ENDPOINT_SHARE = 0.5;

const descriptionOf = (scenario: unknown): string => {
  const d = typeof scenario === 'object' && scenario !== null ? (scenario as { description?: unknown }).description : undefined;
  return typeof d === 'string' ? d : '';
};

export const otherHosts: DiagnosisRule = {
  id: 'other-hosts',
  kind: 'finding',
  about: {
    summary: "an imported scenario sends requests captured for other hosts (import-har --all-hosts) to its one server: their figures measure the wrong server",
    thresholds: [{ name: 'FAILED_ENDPOINT_SHARE', value: FAILED_ENDPOINT_SHARE, why: 'an endpoint with at least this share failed is counted as failing (evidence only: the rule fires on the import\'s note)' }],
    blindSpots: ["reads the import's note in the scenario's description: a description edited by hand, or requests from other hosts pasted one by one (the editor's curl paste), are not seen", 'which endpoints came from other hosts is not stored: the failing endpoints are a hint, not a list'],
  },
  check({ run }) {
    const kept = otherHostsKeptIn(descriptionOf(run.scenario));
    if (kept === null) return [];
    const endpoints = run.targets.flatMap((t) => t.phases.flatMap((p) => p.endpoints ?? []));
    const failing = endpoints.filter((e) => (errorRate(e) ?? 0) >= FAILED_ENDPOINT_SHARE);
    const only = run.targets.length === 1 ? run.targets[0]! : null;
    return [{
      rule: 'other-hosts',
      kind: 'finding',
      text: `requests captured for ${kept.count} other host(s) (${kept.hosts.join(', ')}) were sent to ${kept.main} instead: their figures measure the wrong server${failing.length > 0 ? `, and ${failing.length} endpoint(s) mostly failed there` : ''}`,
      evidence: {
        ...(only === null ? {} : { targetId: only.id, server: only.name }),
        figures: [
          { name: 'other hosts', value: kept.count, unit: 'hosts' },
          { name: 'endpoints mostly failing', value: failing.length, unit: 'endpoints' },
        ],
      },
      confidence: 'high',
      wouldChange: "the scenario's description: the import wrote the note; a run of the same HAR imported without --all-hosts",
      next: 'import the HAR without --all-hosts (only the main host), or once per host with --host, and run each against its own server',
    }];
  },
};
