import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';
import type { Cell } from './matrix.js';
import { defaultPhaseName } from '../../contract/phase.js';

// A threshold that names a phase or a server nobody has would never be checked and so never fail:
// that is a mistake in the file, reported at the threshold's field.

export function thresholdRefIssues(scenario: Scenario, cells: readonly Cell[]): ScenarioIssue[] {
  const phases = new Set<string>();
  const servers = new Set<string>();
  for (const cell of cells) {
    cell.scenario.phases.forEach((p, i) => {
      phases.add(defaultPhaseName(i));
      if (p.name) phases.add(p.name);
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
  });
  return issues;
}
