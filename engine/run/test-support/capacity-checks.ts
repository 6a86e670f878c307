import { expect } from 'vitest';
import type { StepVerdict } from '../../../contract/capacity/search.js';
import type { LiveWindow, PhaseResult } from '../../../contract/results.js';
import type { CapacitySearch } from '../../../contract/scenario.js';

// Checks of a real capacity search that hold whatever the machine's speed. Which loads held depends on
// the machine (a busy one lags, stalls, answers late); what never does: each verdict follows from
// the step's own stored figures and the scenario's limits, each load offered follows from the
// verdicts before it, and the capacity shown follows from the verdicts. Written from the scenario
// format's own words, not with contract/capacity/search.ts, so a search that judged or stepped
// wrongly fails here even when every view agrees with the engine.

/** What the engine stored for one server run of a search. */
export interface StoredSearch {
  /** the scenario's capacity block, defaults filled */
  search: CapacitySearch;
  mode: 'rate' | 'users';
  /** phases[0]'s rate or users */
  start: number;
  /** phases[0]'s durationMs: each step's length */
  stepMs: number;
  phases: readonly PhaseResult[];
  /** the server run's windows (the arrivals queued for a free slot, per phase) */
  windows: readonly Pick<LiveWindow, 'phaseIndex' | 'queued'>[];
}

/** What a view shows of that search (the CLI's --json, or the figures a view computes). */
export interface ShownSearch {
  steps: readonly { offered: number; throughput: number; verdict: StepVerdict }[];
  sustainable: number | null;
  interval: readonly [number | null, number | null];
  limitedBy: string;
  /** the load offered at the knee (the lowest where the server broke; a generator stop is none); null when the server never broke */
  knee: number | null;
  ended: string;
  /** the figures are lower bounds (the generator stopped the search before the server broke), when the view states it */
  lowerBound?: boolean;
}

const UNIT = { rate: 'req/s', users: 'users' } as const;
/** a step's phase name, written here independently of contract/capacity: "400 req/s", "1 user", "8 users" */
const stepNameOf = (mode: 'rate' | 'users', offered: number) => { const n = Number(offered.toPrecision(4)); return mode === 'users' && n === 1 ? '1 user' : `${n} ${UNIT[mode]}`; };

/** Every check below; `what` names the search in failure messages. */
export function expectSearchAgreesWithFigures(stored: StoredSearch, shown: ShownSearch, what = 'the search'): void {
  const { search, mode } = stored;
  const phases = [...stored.phases].sort((a, b) => a.index - b.index);
  const steps = shown.steps;
  const say = (m: string) => `${what}: ${m}; steps ${JSON.stringify(steps.map((s) => [s.offered, Math.round(s.throughput * 10) / 10, s.verdict.held ? 'held' : s.verdict.detail]))}`;

  // each step is a stored phase named by its load, in order, with the throughput it measured
  expect(phases.map((p) => p.name), say('phase names')).toEqual(steps.map((s) => stepNameOf(mode, s.offered)));
  expect(steps.map((s) => s.throughput)).toEqual(phases.map((p) => p.throughput));
  expect(steps.length, say('at least one step')).toBeGreaterThan(0);
  expect(steps.length, say('the step bound')).toBeLessThanOrEqual(search.maxSteps);
  expect(steps[0]!.offered).toBe(Math.min(stored.start, mode === 'users' ? search.maxUsers : search.maxRate));

  // each verdict from the step's own figures
  const queued = (index: number) => stored.windows.filter((w) => w.phaseIndex === index).reduce((m, w) => Math.max(m, w.queued), 0);
  steps.forEach((step, i) => {
    const p = phases[i]!;
    const lag = mode === 'users' ? p.lag.p50 : p.lag.p90;
    const fails = {
      // late sends with a free slot are the generator's; late because every slot was busy is the server's
      generator: lag > search.maxLagMs && queued(p.index) === 0,
      errors: p.count > 0 && (p.count - p.ok) / p.count > search.maxErrorRate,
      throughput: mode === 'rate' ? p.throughput < search.minAchievedRatio * step.offered : steps.slice(0, i).some((s) => s.verdict.held && s.offered < step.offered && p.throughput < search.minAchievedRatio * s.throughput),
      latency: !(p[search.latency.sample]?.[search.latency.stat] !== undefined && p[search.latency.sample]![search.latency.stat] <= search.latency.maxMs),
    };
    const figures = `step ${i} (${step.offered} ${UNIT[mode]}): lag ${lag} ms, queued ${queued(p.index)}, ${p.ok}/${p.count} ok, ${p.throughput} req/s, ${search.latency.sample} ${search.latency.stat} ${p[search.latency.sample]?.[search.latency.stat]} ms`;
    if (step.verdict.held) {
      expect(fails, say(`${figures} held though a limit failed`)).toEqual({ generator: false, errors: false, throughput: false, latency: false });
    } else {
      expect(fails[step.verdict.limit], say(`${figures} broke by ${step.verdict.limit}, which its figures meet`)).toBe(true);
      // a step where the server failed a limit of its own is the server's whatever the lag; only a
      // step the server held, sent late with a free slot, is the generator's
      // (total and wait include the generator's lateness: with lag over the bound, latency is the
      // server's only when the bound is broken even after the step's worst lag is taken off)
      const value = p[search.latency.sample]?.[search.latency.stat];
      const ownLatency = fails.generator && search.latency.sample !== 'processing' && value !== undefined ? value - p.lag.max > search.latency.maxMs : fails.latency;
      // likewise its achieved rate: the requests over the step's length less the worst lag
      const ownRate = !fails.generator ? p.throughput : p.durationMs > p.lag.max ? p.count / ((p.durationMs - p.lag.max) / 1000) : Infinity;
      const ownThroughput = !fails.generator ? fails.throughput : mode === 'rate' ? ownRate < search.minAchievedRatio * step.offered : steps.slice(0, i).some((s) => s.verdict.held && s.offered < step.offered && ownRate < search.minAchievedRatio * s.throughput);
      const serverFailed = fails.errors || ownThroughput || ownLatency;
      expect(step.verdict.limit === 'generator', say(`${figures}: generator verdict`)).toBe(fails.generator && !serverFailed);
      if (step.verdict.limit === 'latency') expect(ownLatency, say(`${figures}: latency with the generator's lag taken off`)).toBe(true);
      if (step.verdict.limit === 'throughput') expect(ownThroughput, say(`${figures}: achieved rate with the generator's lag taken off`)).toBe(true);
    }
  });

  // each load offered from the verdicts before it: up by the factor while all held, then inside the bracket
  const bracket = (upTo: number) => {
    const before = steps.slice(0, upTo);
    const broken = before.filter((s) => !s.verdict.held && s.verdict.limit !== 'generator').map((s) => s.offered);
    const broke = broken.length > 0 ? Math.min(...broken) : null;
    const held = before.filter((s) => s.verdict.held && (broke === null || s.offered < broke)).map((s) => s.offered);
    return { broke, held: held.length > 0 ? Math.max(...held) : null };
  };
  const max = mode === 'users' ? search.maxUsers : search.maxRate;
  for (let i = 1; i < steps.length; i++) {
    const last = steps[i - 1]!.offered;
    const offered = steps[i]!.offered;
    expect(steps.slice(0, i).some((s) => !s.verdict.held && s.verdict.limit === 'generator'), say(`a step after the generator's limit`)).toBe(false);
    const { held, broke } = bracket(i);
    if (broke === null) expect(offered, say(`step ${i} after all held`)).toBe(Math.min(mode === 'users' ? Math.max(last + 1, Math.round(last * search.factor)) : last * search.factor, max));
    else {
      expect(offered, say(`step ${i} below the lowest broken`)).toBeLessThan(broke);
      if (held !== null) expect(offered, say(`step ${i} above the highest held`)).toBeGreaterThan(held);
    }
    if (mode === 'users') expect(Number.isInteger(offered)).toBe(true);
  }

  // why it ended
  const { held, broke } = bracket(steps.length);
  const lastStep = steps.at(-1)!;
  const generatorEnded = !lastStep.verdict.held && lastStep.verdict.limit === 'generator';
  const narrow = held !== null && broke !== null && ((broke - held) / held <= search.tolerance || (mode === 'users' && broke - held <= 1));
  expect(['complete', 'step count', 'time bound'], say('ended')).toContain(shown.ended);
  if (shown.ended === 'complete') expect(generatorEnded || narrow || (broke === null && lastStep.offered >= max) || (held === null && broke !== null), say('complete, but the bracket is wide')).toBe(true);
  if (shown.ended === 'step count') expect(steps.length).toBe(search.maxSteps);
  if (shown.ended === 'time bound') {
    const p = phases.at(-1)!;
    // the next step's arrivals would have ended after the bound (the driver's clock read at the step's end)
    expect(p.startedMs + p.durationMs + stored.stepMs, say('time bound')).toBeGreaterThan(search.maxDurationMs - 100);
  }

  // the capacity from the verdicts
  expect(shown.sustainable, say('sustainable')).toBe(held);
  expect([...shown.interval], say('bracket')).toEqual([held, broke]);
  expect(shown.knee, say('knee')).toBe(broke);
  const generator = steps.find((s) => !s.verdict.held && s.verdict.limit === 'generator');
  const kneeVerdict = steps.find((s) => s.offered === broke && !s.verdict.held && s.verdict.limit !== 'generator')?.verdict;
  // what the server broke first wins; the generator only when it stopped the search before the server broke
  if (shown.lowerBound !== undefined) expect(shown.lowerBound, say('lower bound')).toBe(broke === null && generator !== undefined);
  expect(shown.limitedBy, say('limited by')).toBe(broke !== null ? (kneeVerdict && !kneeVerdict.held ? kneeVerdict.limit : '?') : generator ? 'generator' : 'max load');
}
