import { extractRegex, parseJsonPath, type Extract } from './extract.js';
import { hasPlaceholders, parseTemplate, templateFields, type TemplateFields, type VariableIssue } from './variables.js';

// Journeys: a closed or ramping-users phase with `"flow": true` runs its requests as steps, in
// order, by each user; a step may extract a value from its response into that user's variables
// ({{vars.<name>}}, contract/extract.ts). Any error of a step (a failed extraction too) starts the
// user's flow again from the first step with no variables. A step's thinkMs is the user's pause
// after it (else the phase's thinkMs). Checks here are zod-free and structural, so the schema calls
// them; the driver runs flows in engine/driver/requests/flow-users.ts.

interface FlowStep extends TemplateFields {
  extract?: Extract | undefined;
  thinkMs?: number | undefined;
}

export interface FlowInput {
  phases: readonly { requests: readonly FlowStep[] }[];
}

/** The phase runs its requests as a flow (any phase type: only closed and ramping-users may say so). */
export const isFlow = (phase: object): boolean => 'flow' in phase && phase.flow === true;

function extractIssue(e: Extract): { key: string; message: string } | null {
  if (e.from === 'json') {
    const keys = parseJsonPath(e.path);
    return typeof keys === 'string' ? { key: 'path', message: keys } : null;
  }
  // a regex runs on the body; a header extract may run one on the header's value
  if (e.pattern === undefined) return null;
  const re = extractRegex(e.pattern);
  return typeof re === 'string' ? { key: 'pattern', message: re } : null;
}

/**
 * Every flow problem of a scenario at its JSON path: an extract outside a flow, a bad JSON path or
 * pattern, a {{vars.x}} no earlier step extracts. Only closed and ramping-users phases have a
 * `flow` key (users to keep variables): the schema refuses it elsewhere.
 */
export function flowIssues(s: FlowInput): VariableIssue[] {
  const issues: VariableIssue[] = [];
  s.phases.forEach((phase, i) => {
    const flow = isFlow(phase);
    const extracted = new Set<string>();
    phase.requests.forEach((t, j) => {
      const at = ['phases', i, 'requests', j];
      for (const field of templateFields(t)) {
        if (!hasPlaceholders(field.text)) continue;
        const parsed = parseTemplate(field.text);
        if (!parsed.ok) continue; // variables.ts names it
        for (const p of parsed.parts) {
          if (typeof p === 'string' || p.kind !== 'vars' || extracted.has(p.name)) continue;
          const message = flow
            ? `'{{vars.${p.name}}}' but no earlier step extracts '${p.name}' (add "extract": {"var": "${p.name}", ...} to a step before this one)`
            : `'{{vars.${p.name}}}' needs a flow: set the phase's "flow": true and extract '${p.name}' in an earlier step`;
          issues.push({ path: [...at, ...field.key], message });
        }
      }
      if (t.thinkMs !== undefined && !flow) issues.push({ path: [...at, 'thinkMs'], message: `a step's thinkMs belongs to a flow: set the phase's "flow": true (the phase's thinkMs is the pause between requests)` });
      if (t.extract === undefined) return;
      if (!flow) issues.push({ path: [...at, 'extract'], message: `extract belongs to a flow's steps: set the phase's "flow": true` });
      const bad = extractIssue(t.extract);
      if (bad !== null) issues.push({ path: [...at, 'extract', bad.key], message: bad.message });
      if (flow) extracted.add(t.extract.var);
    });
  });
  return issues;
}
