import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';
import type { Cell } from './matrix.js';
import { defaultPhaseName } from '../../contract/phase.js';
import { templateName } from '../../contract/template-name.js';

// A threshold that names a phase or a server nobody has would never be checked and so never fail:
// that is a mistake in the file, reported at the threshold's field. So is a request (endpoint) name
// that no phase the threshold applies to has.

export function thresholdRefIssues(scenario: Scenario, cells: readonly Cell[]): ScenarioIssue[] {
  const phases = new Set<string>();
  const servers = new Set<string>();
  // endpoint names by phase name (a phase is named by its name and by "phase N")
  const endpoints = new Map<string, Set<string>>();
  for (const cell of cells) {
    cell.scenario.phases.forEach((p, i) => {
      const names = [defaultPhaseName(i), ...(p.name ? [p.name] : [])];
      for (const name of names) {
        phases.add(name);
        const set = endpoints.get(name) ?? new Set<string>();
        for (const t of p.requests) set.add(templateName(t));
        endpoints.set(name, set);
      }
    });
    for (const s of cell.scenario.servers) {
      servers.add(s.architecture);
      if (s.label) servers.add(s.label);
    }
  }
  const issues: ScenarioIssue[] = [];
  (scenario.thresholds ?? []).forEach((t, i) => {
    if (t.phase !== undefined && !phases.has(t.phase)) {
      issues.push({ path: `thresholds[${i}].phase`, message: `no phase '${t.phase}'; phases: ${[...phases].join(', ')}` });
    }
    if (t.server !== undefined && !servers.has(t.server)) {
      issues.push({ path: `thresholds[${i}].server`, message: `no server '${t.server}'; servers: ${[...servers].join(', ')}` });
    }
    if (t.request !== undefined && (t.phase === undefined || phases.has(t.phase))) {
      const known = new Set(t.phase === undefined ? [...endpoints.values()].flatMap((s) => [...s]) : endpoints.get(t.phase));
      if (!known.has(t.request)) {
        const where = t.phase === undefined ? '' : ` in phase '${t.phase}'`;
        issues.push({ path: `thresholds[${i}].request`, message: `no request named '${t.request}'${where}; requests: ${[...known].join(', ')}` });
      }
    }
  });
  return issues;
}
