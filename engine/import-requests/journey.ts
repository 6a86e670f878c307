import type { CorrelateChoice, CorrelationProposal, ImportedJourney } from '../../contract/imported-journey.js';
import { SCENARIO_LIMITS, type ScenarioInput } from '../../contract/scenario.js';
import { DATA_LIMITS } from '../scenario/data-files.js';
import { formatPath } from '../scenario/param-path.js';
import type { Exchange } from './captured.js';
import { applyCorrelations, findCorrelations, type Correlation } from './correlate.js';
import { credentialsCsv, moveCredentials } from './credentials.js';
import { stepOf, templateOf, type Step } from './journey-step.js';
import { badImport, MAX_REQUESTS_BYTES, shown } from './limits.js';
import { scenarioName, validImport } from './imported-scenario.js';
import { previewValue, replacedText } from './replaced-preview.js';
import { stepName, uniqueStepName } from './step-names.js';

// What a HAR or a curl command becomes (issue 39): a journey. The recorded origin as an external
// server; one closed phase with "flow": true whose steps are the requests in recorded order (not
// deduplicated, not weighted: a login comes before what it guards), named by endpoint; one user
// going through it PASSES times. Correlations accepted (all by default) extract and send back the
// values the server gives; credentials move to a data file; then it is validated (validImport).

/** How many times the one user goes through the journey by default: a replay, not a load. */
export const PASSES = 3;
/** The data set the credentials are read from, by name. */
const CREDENTIALS = 'credentials';

export interface JourneyOptions {
  correlate?: CorrelateChoice | undefined;
  /** more requests than a journey holds: refused (a file given to import), or the first ones kept with a note (a recording: the person's clicks are not thrown away) */
  overLimit?: 'refuse' | 'keep-first' | undefined;
  /** the credentials file's path as the scenario names it (relative to the scenario's file, or absolute) */
  credentialsFile: string;
}

/** The import's answer, with the credentials file's text for the caller to write or keep (never shown). */
export interface JourneyImport extends Omit<ImportedJourney, 'files'> {
  csv: string | null;
}

/** A step that extracts from its body asks for it uncompressed (the driver does not decompress); how many steps changed. */
function leaveUncompressed(steps: Step[]): number {
  let changed = 0;
  for (const step of steps) {
    if (step.extract === null || step.extract.from === 'header') continue;
    const before = step.headers.length;
    step.headers = step.headers.filter(([name]) => name.toLowerCase() !== 'accept-encoding');
    if (step.headers.length < before) changed++;
  }
  return changed;
}

function accepted(all: readonly Correlation[], choice: CorrelateChoice): Set<string> {
  if (choice === 'all') return new Set(all.map((c) => c.id));
  if (choice === 'none') return new Set();
  const known = new Set(all.map((c) => c.id));
  const unknown = choice.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw badImport(`--correlate names ${unknown.slice(0, 5).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not proposed (${all.length === 0 ? 'there are no proposals' : `proposals: ${all.map((c) => c.id).join(', ')}`})`);
  }
  return new Set(choice);
}

const fieldPath = (step: number, key: readonly string[]): string => formatPath(['phases', 0, 'requests', step, ...key]);

function proposalOf(c: Correlation, steps: readonly Step[], taken: boolean): CorrelationProposal {
  const shown = previewValue(c.value, c.var);
  return {
    id: c.id,
    var: c.var,
    value: shown,
    chars: c.value.length,
    from: { step: c.source.step, name: steps[c.source.step]!.name, where: c.source.where },
    uses: c.uses.map((u) => ({ step: u.step, name: steps[u.step]!.name, field: fieldPath(u.step, u.key), shows: replacedText(steps[u.step]!, u.key, `{{vars.${c.var}}}`, c.value, shown) })),
    accepted: taken,
  };
}

/** One line of a proposal, as the CLI lists it: "c1 {{vars.accessToken}} = "eyJhbGci…" (171 chars) from step 1 ...". */
export function proposalLine(p: CorrelationProposal): string {
  const uses = p.uses.slice(0, 4).map((u) => `step ${u.step + 1} ${u.field.replace(/^phases\[0\]\.requests\[\d+\]\./, '')}`);
  const more = p.uses.length > 4 ? ` and ${p.uses.length - 4} more` : '';
  return `${p.id} ${p.accepted ? 'accepted' : 'not taken'}: {{vars.${p.var}}} = ${shown(p.value, 20)} (${p.chars} chars) from step ${p.from.step + 1} ${p.from.name}, ${p.from.where}; replaces ${uses.join(', ')}${more}`;
}

/**
 * The journey of `exchanges` (in recorded order) against `origin`: every request a step, at most
 * SCENARIO_LIMITS.templates of them (a longer recording is refused in one line, nothing made).
 */
export function journeyOf(exchanges: readonly Exchange[], origin: URL, kind: 'har' | 'curl', title: string, notes: string[], opts: JourneyOptions): JourneyImport {
  const limit = SCENARIO_LIMITS.templates;
  if (exchanges.length > limit && opts.overLimit !== 'keep-first') {
    throw badImport(`${exchanges.length} requests to ${origin.host}; a journey holds at most ${limit} steps: record a shorter session (or pick another host with --host)`);
  }
  if (exchanges.length > limit) notes.push(`kept the first ${limit} of ${exchanges.length} requests to ${origin.host}: a journey holds at most ${limit} steps`);
  const taken = new Set<string>();
  const steps = exchanges.slice(0, limit).map((e) => stepOf(e, uniqueStepName(stepName(e.request), taken)));

  const { correlations, left } = findCorrelations(steps);
  const chosen = accepted(correlations, opts.correlate ?? 'all');
  applyCorrelations(steps, correlations.filter((c) => chosen.has(c.id)));
  const compressed = leaveUncompressed(steps);
  if (compressed > 0) notes.push(`left out Accept-Encoding on ${compressed} step(s) that extract from the body: the replay reads a body as it comes, so it must not come compressed`);
  const credentials = moveCredentials(steps);
  if (credentials !== null && credentials.columns.length > DATA_LIMITS.columns) {
    throw badImport(`the requests send ${credentials.columns.length} different credentials; a data file holds at most ${DATA_LIMITS.columns} columns: record a shorter session`);
  }

  const failed = steps.flatMap((s, i) => (s.response !== null && s.response.status >= 400 ? [`step ${i + 1} ${s.name} (${s.response.status})`] : []));
  if (failed.length > 0) notes.push(`answered with an error when recorded: ${failed.slice(0, 5).join(', ')}${failed.length > 5 ? ` and ${failed.length - 5} more` : ''}; a replay may fail there too`);
  if (credentials !== null) {
    notes.push(`moved ${credentials.columns.length} credential(s) (${credentials.columns.join(', ')}) out of the scenario to ${opts.credentialsFile}, read as {{data.<column>}}: keep that file beside the scenario, out of what you share`);
  }
  const taking = correlations.filter((c) => chosen.has(c.id)).length;
  if (correlations.length > 0) notes.push(`correlated ${taking} of ${correlations.length} value(s) a response gave and a later request sent back`);
  if (left > 0) notes.push(`${left} more value(s) sent back were left as recorded: the step that gave each extracts another value already (a step extracts one)`);
  notes.push(`one user goes through the ${steps.length} step(s) ${PASSES} times: raise users and count (or use a ramp) to load it`);

  const requests = steps.map(templateOf);
  const bytes = Buffer.byteLength(JSON.stringify(requests));
  if (bytes > MAX_REQUESTS_BYTES) throw badImport(`the ${steps.length} requests make ${Math.ceil(bytes / 1024)} KiB of scenario; at most ${MAX_REQUESTS_BYTES / 1024} KiB: record a shorter session`);
  const scenario: ScenarioInput = {
    name: scenarioName(kind, origin.hostname),
    title,
    description: [title, ...notes].map((line) => `${line.charAt(0).toUpperCase()}${line.slice(1)}.`).join(' '),
    servers: [{ architecture: 'external', label: origin.host, url: origin.origin }],
    ...(credentials !== null ? { data: [{ name: CREDENTIALS, file: opts.credentialsFile }] } : {}),
    phases: [{ name: 'journey', executor: 'closed', users: 1, count: steps.length * PASSES, flow: true, ...(credentials !== null ? { data: CREDENTIALS } : {}), requests }],
  };
  return {
    text: validImport(scenario, notes).text,
    notes,
    proposals: correlations.map((c) => proposalOf(c, steps, chosen.has(c.id))),
    credentials: credentials === null ? null : { file: opts.credentialsFile, columns: credentials.columns },
    csv: credentials === null ? null : credentialsCsv(credentials),
  };
}
