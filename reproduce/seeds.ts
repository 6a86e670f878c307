import type { MetricName } from '../contract/scenario.js';

// The five write-ups and the built-in scenarios that reproduce them, in the order a reproduction
// runs and reports them. Cheap seeds first, so a failure shows up before the long ones.

/** Which figure decides "who wins" in a scenario: lower is better for every metric used here. */
export interface Headline {
  /** the phase the figure is read from (absent: every phase together) */
  phase?: string;
  metric: MetricName;
  /** what the metric is, in words */
  what: string;
}

export interface SeedScenario {
  name: string;
  /** about how long the full-size run takes on a quiet 2-core machine, in minutes (shown as progress) */
  fullMinutes: number;
  /** absent where the scenario has one server, so "who wins" is a question for its checks */
  headline?: Headline;
}

export interface SeedInfo {
  id: string;
  title: string;
  /** the write-up's file in ../shared/seeds/ */
  source: string;
  scenarios: readonly SeedScenario[];
}

export const SEEDS: readonly SeedInfo[] = [
  {
    id: '002',
    title: 'Rudy, a sequential web server (course report)',
    source: '002_4404546b33ce7027.txt',
    scenarios: [{ name: 'seed-002-sequential', fullMinutes: 0.3 }],
  },
  {
    id: '004',
    title: 'Node.js worker patterns under ApacheBench (gist)',
    source: '004_308e6a823cc93185.txt',
    scenarios: [{ name: 'seed-004-workers', fullMinutes: 1, headline: { metric: 'total.p50', what: 'median total time' } }],
  },
  {
    id: '001',
    title: 'Go server toolkits and Apache at constant request rates (thesis chapter)',
    source: '001_527a58fa8a01ce85.txt',
    scenarios: [{ name: 'seed-001-rates', fullMinutes: 7, headline: { phase: 'measure', metric: 'total.mean', what: 'mean response time' } }],
  },
  {
    id: '000',
    title: 'An auto-scaling process pool (Master + Cooperator) against node:cluster (paper)',
    source: '000_abcf55c5928ba9cd.txt',
    scenarios: [
      { name: 'seed-000-late-requests', fullMinutes: 6, headline: { phase: 'late', metric: 'total.mean', what: 'mean total time of the late requests' } },
      { name: 'seed-000-image', fullMinutes: 2.5, headline: { phase: 'late', metric: 'total.mean', what: 'mean total time of the late image requests' } },
      { name: 'seed-000-image-200', fullMinutes: 2.5, headline: { phase: '200 at once', metric: 'total.mean', what: 'mean total time of the 200 requests' } },
    ],
  },
  {
    id: '003',
    title: 'Thread per request against a pre-created thread pool (course report)',
    source: '003_f37a21a0888f7a12.txt',
    scenarios: [
      { name: 'seed-003-threads', fullMinutes: 4.5, headline: { metric: 'durationMs', what: 'total time' } },
      { name: 'seed-003-delays', fullMinutes: 7.5, headline: { metric: 'durationMs', what: 'total time' } },
      { name: 'seed-003-buckets', fullMinutes: 6.5, headline: { metric: 'durationMs', what: 'total time' } },
    ],
  },
];

/** Every seed scenario's name, in run order. */
export const SEED_SCENARIO_NAMES: readonly string[] = SEEDS.flatMap((s) => s.scenarios.map((sc) => sc.name));

/** The seeds whose id or scenario name matches one of `only` ('000', 'seed-000', 'seed-000-image'...). */
export function selectSeedScenarios(only: readonly string[] | undefined): string[] {
  if (!only || only.length === 0) return [...SEED_SCENARIO_NAMES];
  // A scenario name selects itself only (seed-000-image is not seed-000-image-200); a seed id, all of its scenarios.
  return SEED_SCENARIO_NAMES.filter((name) =>
    only.some((o) => {
      const key = o.trim();
      const id = /^(?:seed-)?(\d{3})$/.exec(key)?.[1];
      return name === key || (id !== undefined && name.startsWith(`seed-${id}-`));
    }),
  );
}

export function seedOf(scenarioName: string): SeedInfo | undefined {
  return SEEDS.find((s) => s.scenarios.some((sc) => sc.name === scenarioName));
}

export function seedScenario(scenarioName: string): SeedScenario | undefined {
  return seedOf(scenarioName)?.scenarios.find((sc) => sc.name === scenarioName);
}
