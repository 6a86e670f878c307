import { remoteHostOf, templateName } from '../../contract/scenario.js';
import { parseScenarioText } from '../scenario/parse-text.js';
import { parseCurl, type CurlOptions } from './curl.js';
import { endpointName, toTemplate, uniqueName } from './imported-scenario.js';
import { badImport } from './limits.js';

// The editor's "Paste a curl command": the request joins a phase of the scenario being edited, under
// a name of its own in that phase. The scenario's servers are left as they are: a request's URL host
// is only noted when no server of the scenario has it.

export interface AddedRequest {
  /** the scenario's text with the request added (formatted as the editor's form writes it) */
  text: string;
  /** the name the request got */
  name: string;
  notes: string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function addCurlToScenario(text: string, command: string, phase: number, opts: CurlOptions = {}): AddedRequest {
  const { request, notes } = parseCurl(command, opts);
  const doc = parseScenarioText(text, 'the scenario');
  const phases = isRecord(doc) ? doc.phases : undefined;
  if (!Array.isArray(phases) || phases.length === 0) throw badImport('the scenario has no phases to add the request to (phases is not a list)');
  const target: unknown = phases[phase];
  if (!isRecord(target)) throw badImport(`the scenario has no phases[${phase}]`);
  const requests = target.requests === undefined ? [] : target.requests;
  if (!Array.isArray(requests)) throw badImport(`phases[${phase}].requests is not a list`);
  const taken = new Set(requests.filter(isRecord).map((r) => templateName({ name: typeof r.name === 'string' ? r.name : undefined, method: typeof r.method === 'string' ? r.method : undefined, path: String(r.path) })));
  const name = uniqueName(endpointName(request), taken);
  target.requests = [...requests, toTemplate(request, name)];

  const urls = (Array.isArray(isRecord(doc) ? doc.servers : undefined) ? (doc as { servers: unknown[] }).servers : []).filter(isRecord).map((s) => s.url);
  if (!urls.some((u) => typeof u === 'string' && URL.canParse(u) && new URL(u).origin === request.url.origin)) {
    notes.push(`the command was sent to ${request.url.host}; in this scenario the request goes to each of its servers`);
  } else if (remoteHostOf(request.url.origin) !== null) notes.push(`${request.url.hostname} is not this machine: running it needs consent`);
  return { text: `${JSON.stringify(doc, null, 2)}\n`, name, notes };
}
