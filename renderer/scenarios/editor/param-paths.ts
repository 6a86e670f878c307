import { formatDocPath, getAt } from './doc-path';
import { phaseNumberFields } from './phase-fields';
import { isArchitecture, optionFields } from './form-servers';
import { defaultPhaseName } from '../../../contract/phase';

// The parameters a matrix or the quick profile can set, read from the document itself: each phase's
// sizes (duration, rate, count, users, ...) and each server's cores and options, as the path the
// engine takes (`phases[0].durationMs`) and a name a person reads ("phase 1 (steady): duration (ms)").

export interface ParamPath {
  path: string;
  label: string;
  group: string;
}

const nameOf = (v: unknown, fallback: string) => (typeof v === 'string' && v !== '' ? v : fallback);

export function parameterPaths(doc: unknown): ParamPath[] {
  const out: ParamPath[] = [];
  const phases = getAt(doc, ['phases']);
  (Array.isArray(phases) ? phases : []).forEach((_, i) => {
    const group = `${defaultPhaseName(i)} (${nameOf(getAt(doc, ['phases', i, 'name']), String(getAt(doc, ['phases', i, 'executor']) ?? '?'))})`;
    for (const f of phaseNumberFields(getAt(doc, ['phases', i, 'executor']))) out.push({ path: formatDocPath(['phases', i, f.key]), label: `${group}: ${f.label}`, group });
    // a ramp's stages, each by its row's words (a quick profile shortens each stage's time)
    const stages = getAt(doc, ['phases', i, 'stages']);
    (Array.isArray(stages) ? stages : []).forEach((_s, j) => {
      out.push({ path: formatDocPath(['phases', i, 'stages', j, 'durationMs']), label: `${group}: stage ${j + 1} over (ms)`, group });
      out.push({ path: formatDocPath(['phases', i, 'stages', j, 'target']), label: `${group}: stage ${j + 1} users`, group });
    });
  });
  const servers = getAt(doc, ['servers']);
  (Array.isArray(servers) ? servers : []).forEach((_, i) => {
    const arch = getAt(doc, ['servers', i, 'architecture']);
    const group = `server ${i + 1} (${nameOf(getAt(doc, ['servers', i, 'label']), String(arch ?? '?'))})`;
    if (arch === 'external') return;
    out.push({ path: formatDocPath(['servers', i, 'cores']), label: `${group}: cores`, group });
    if (isArchitecture(arch)) for (const o of optionFields(arch)) out.push({ path: formatDocPath(['servers', i, 'options', o.key]), label: `${group}: ${o.key}`, group });
  });
  if (Array.isArray(servers) && servers.length > 1) out.push({ path: 'servers[*].cores', label: 'every server: cores', group: 'every server' });
  return out;
}
