import { judgeStep, nextOffered, type CapacityStep } from '../../contract/capacity/search.js';
import { capacityModeOf, searchLimits, searchPlan, stepName } from '../../contract/capacity/steps.js';
import type { CapacitySearch, ClosedPhase, RatePhase } from '../../contract/scenario.js';
import { driverGenerator } from './driver-generator.js';
import type { LoadGenerator } from './load-generator.js';

// A capacity search against one server: phases[0] is offered at its rate (or run with its users),
// judged when it ends (contract/capacity/search.ts), and the next load is appended to the same driver
// run (one t0, one timeline; each step stored as a phase named by its load) until the bracket is
// narrow enough, the step count or the time bound is reached, or the generator was the limit.

export function capacityGenerator(search: CapacitySearch): LoadGenerator {
  return (g) => {
    const template = g.ctx.scenario.phases[0] as RatePhase | ClosedPhase;
    const mode = capacityModeOf(template.executor);
    const at = (offered: number): RatePhase | ClosedPhase => (template.executor === 'rate' ? { ...template, rate: offered } : { ...template, users: offered });
    const start = template.executor === 'rate' ? template.rate : template.users;
    const steps: CapacityStep[] = [];
    const limits = searchLimits(search);
    const plan = searchPlan(search, mode, start);
    const stepMs = template.durationMs ?? 0;
    let offered = start;
    const generator = driverGenerator((ended, queuedMax, tMs) => {
      steps.push({ offered, throughput: ended.throughput, verdict: judgeStep(mode, offered, ended, limits, queuedMax, steps) });
      const next = nextOffered(steps, plan);
      // time bound: no step starts whose load would end after maxDurationMs (its last answers then
      // get at most timeoutMs more); checked here from the last step's end, and by the driver again
      // at the step's real start
      if (next === null || tMs + stepMs > search.maxDurationMs) return null;
      offered = next;
      return { phase: at(next), name: stepName(mode, next) };
    }, search.maxDurationMs);
    const first = { ...template, name: stepName(mode, start) };
    return generator({ ...g, ctx: { ...g.ctx, scenario: { ...g.ctx.scenario, phases: [first] } } });
  };
}
