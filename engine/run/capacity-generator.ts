import { judgeStep, nextRate, type CapacityStep } from '../../contract/capacity/search.js';
import { stepName } from '../../contract/capacity/steps.js';
import type { CapacitySearch, RatePhase } from '../../contract/scenario.js';
import { driverGenerator } from './driver-generator.js';
import type { LoadGenerator } from './run-target.js';

// A capacity search against one server: phases[0] is offered at its rate, judged when it ends
// (contract/capacity/search.ts), and the next rate is appended to the same driver run (one t0, one
// timeline; each step stored as a phase named by its rate) until the bracket is narrow enough, the
// step count or the time bound is reached, or the generator was the limit.

export function capacityGenerator(search: CapacitySearch): LoadGenerator {
  return (g) => {
    const template = g.ctx.scenario.phases[0] as RatePhase;
    const steps: CapacityStep[] = [];
    const limits = { latency: search.latency, maxErrorRate: search.maxErrorRate, minAchievedRatio: search.minAchievedRatio, maxLagMs: search.maxLagMs };
    const plan = { startRate: template.rate, maxRate: search.maxRate, factor: search.factor, tolerance: search.tolerance, maxSteps: search.maxSteps };
    const stepMs = template.durationMs;
    let offered = template.rate;
    const generator = driverGenerator((ended, queuedMax, tMs) => {
      steps.push({ rate: offered, verdict: judgeStep(offered, ended, limits, queuedMax) });
      const next = nextRate(steps, plan);
      // time bound: no step starts whose arrivals would end after maxDurationMs (its last answers
      // then get at most timeoutMs more)
      if (next === null || tMs + stepMs > search.maxDurationMs) return null;
      offered = next;
      return { phase: { ...template, rate: next }, name: stepName(next) };
    });
    const first = { ...template, name: stepName(template.rate) };
    return generator({ ...g, ctx: { ...g.ctx, scenario: { ...g.ctx.scenario, phases: [first] } } });
  };
}
