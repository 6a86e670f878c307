import type { Phase, Scenario, ServerSpec } from '../../contract/scenario.js';
import { isFlow } from '../../contract/flow.js';
import { describePhaseLoad, phaseName } from '../../contract/phase.js';
import type { Cell } from './matrix.js';

// Short human descriptions of servers, phases and a whole scenario, for `validate`, `scenarios` and
// run headers.

/** The name a server goes by in reports: its label, else its architecture. */
export function serverLabel(server: ServerSpec): string {
  return server.label ?? server.architecture;
}

export function describeServer(server: ServerSpec): string {
  const parts = [serverLabel(server)];
  if (server.label !== undefined) parts.push(`(${server.architecture})`);
  if (server.architecture === 'external') {
    parts.push(server.url);
    if (server.command) parts.push(`started with: ${server.command.join(' ')}`);
    if (server.optional) parts.push('(optional)');
  } else {
    const options = Object.entries(server.options).map(([k, v]) => `${k}=${String(v)}`);
    if (options.length > 0) parts.push(options.join(' '));
  }
  if (server.cores !== undefined) parts.push(`cores=${server.cores}`);
  return parts.join(' ');
}

export { phaseName };

/** `3 requests at once`, `10 users, 1,000 requests`, `100 → 200 req/s for 5 s (poisson) × 2 clients`, ... (contract/phase.ts words every view alike) */
export function describePhaseSize(phase: Phase): string {
  return describePhaseLoad(phase);
}

export function describePhase(phase: Phase, index: number): string {
  const start = phase.at !== undefined ? `at ${phase.at} ms` : index === 0 ? 'at start' : 'after the previous phase';
  // a flow's steps go in order, each user through all of them: no weights
  const requests = isFlow(phase)
    ? `flow ${phase.requests.map((r) => `${r.method} ${r.path}`).join(' -> ')}`
    : phase.requests.map((r) => `${r.method} ${r.path}${phase.requests.length > 1 ? ` (weight ${r.weight})` : ''}`).join(', ');
  return `${phaseName(phase, index)}: ${describePhaseSize(phase)}, ${start}; ${requests}`;
}

/** The lines `validate` prints after OK. */
export function summarizeScenario(scenario: Scenario, cells: readonly Cell[]): string[] {
  const lines = [`${scenario.name}${scenario.title ? `: ${scenario.title}` : ''}`];
  lines.push(`servers (${scenario.servers.length}):`);
  scenario.servers.forEach((s, i) => lines.push(`  [${i}] ${describeServer(s)}`));
  lines.push(`phases (${scenario.phases.length}):`);
  scenario.phases.forEach((p, i) => lines.push(`  [${i}] ${describePhase(p, i)}`));
  const entries = Object.entries(scenario.matrix ?? {});
  if (entries.length === 0) {
    lines.push('matrix: none (1 cell)');
  } else {
    lines.push(`matrix: ${cells.length} cell${cells.length === 1 ? '' : 's'} (${entries.map(([k, v]) => `${k}: ${v.length} value${v.length === 1 ? '' : 's'}`).join(' x ')})`);
    for (const cell of cells) lines.push(`  [${cell.index}] ${cell.label}`);
  }
  if (scenario.quick) lines.push(`quick profile: ${Object.keys(scenario.quick).join(', ')}`);
  return lines;
}

/** Distinct server names over every cell (a matrix over `servers` brings in more than the base list). */
export function serverNames(cells: readonly Cell[]): string[] {
  const names = new Set<string>();
  for (const cell of cells) for (const s of cell.scenario.servers) names.add(serverLabel(s));
  return [...names];
}
