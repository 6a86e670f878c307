import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';

// A capacity search steps one phase: the scenario must have exactly that one, either an open-loop
// rate phase at a constant rate (the search sets the rate) or a closed-loop phase timed by its
// duration (the search sets the users), starting at or below the search's maximum.

export function capacityIssues(scenario: Scenario): ScenarioIssue[] {
  const c = scenario.capacity;
  if (c === undefined) return [];
  if (scenario.phases.length !== 1) return [{ path: 'phases', message: `a capacity search steps one rate or closed phase; this scenario has ${scenario.phases.length}` }];
  const p = scenario.phases[0]!;
  const issues: ScenarioIssue[] = [];
  if (p.at !== undefined) issues.push({ path: 'phases[0].at', message: 'a capacity search runs its steps one after another: leave at out' });
  if (p.executor === 'rate') {
    if (p.rampTo !== undefined) issues.push({ path: 'phases[0].rampTo', message: "a capacity search sets each step's rate: leave rampTo out" });
    if (p.rate > c.maxRate) issues.push({ path: 'phases[0].rate', message: `the first rate (${p.rate} req/s) is above capacity.maxRate (${c.maxRate})` });
  } else if (p.executor === 'closed') {
    if (p.count !== undefined) issues.push({ path: 'phases[0].count', message: 'each step of a users search lasts durationMs: leave count out' });
    if (p.users > c.maxUsers) issues.push({ path: 'phases[0].users', message: `the first step's users (${p.users}) are above capacity.maxUsers (${c.maxUsers})` });
  } else {
    return [{ path: 'phases[0].executor', message: `a capacity search steps a rate phase (its rate) or a closed phase (its users), not '${p.executor}'` }];
  }
  const durationMs = p.durationMs ?? 0;
  if (durationMs < 500) issues.push({ path: 'phases[0].durationMs', message: 'each step needs at least 500 ms to be judged' });
  if (durationMs > c.maxDurationMs) issues.push({ path: 'phases[0].durationMs', message: `one step (${durationMs} ms) is longer than capacity.maxDurationMs (${c.maxDurationMs})` });
  return issues;
}
