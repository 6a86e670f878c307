import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';

// A capacity search steps one open-loop phase: the scenario must have exactly that one, at a
// constant rate (the search sets the rate), starting at or below the search's maximum.

export function capacityIssues(scenario: Scenario): ScenarioIssue[] {
  const c = scenario.capacity;
  if (c === undefined) return [];
  if (scenario.phases.length !== 1) return [{ path: 'phases', message: `a capacity search steps one rate phase; this scenario has ${scenario.phases.length}` }];
  const p = scenario.phases[0]!;
  if (p.executor !== 'rate') return [{ path: 'phases[0].executor', message: `a capacity search steps a rate phase, not '${p.executor}'` }];
  const issues: ScenarioIssue[] = [];
  if (p.rampTo !== undefined) issues.push({ path: 'phases[0].rampTo', message: 'a capacity search sets each step\'s rate: leave rampTo out' });
  if (p.at !== undefined) issues.push({ path: 'phases[0].at', message: 'a capacity search runs its steps one after another: leave at out' });
  if (p.rate > c.maxRate) issues.push({ path: 'phases[0].rate', message: `the first rate (${p.rate} req/s) is above capacity.maxRate (${c.maxRate})` });
  if (p.durationMs < 500) issues.push({ path: 'phases[0].durationMs', message: 'each step needs at least 500 ms to be judged' });
  if (p.durationMs > c.maxDurationMs) issues.push({ path: 'phases[0].durationMs', message: `one step (${p.durationMs} ms) is longer than capacity.maxDurationMs (${c.maxDurationMs})` });
  return issues;
}
