import { describePhaseLoad, phaseName, type PhaseBase } from './phase.js';
import type { RunSummary } from './results.js';
import { templateName } from './template-name.js';
import { protocolDifferenceLines } from './protocol-differences.js';

// How compared runs' scenarios differ from A's, in words: the one wording the Compare view, its
// exports and `loadscope compare` show. Two versions of one scenario (same name) are the same
// scenario run differently, each difference a line: what the quick profile changed ("quick on in
// B: phase ramp duration 4 s -> 1 s"), thresholds added or dropped ("B adds threshold total.p99 <
// 5"), phases, servers and requests by their names, then any other field by its path. A stored
// scenario has its quick profile applied and its `quick` key removed, so the full run's profile
// says which fields the quick one changed (a raw diff showed "quick: {...} -> absent").
// Zod-free: the renderer and the CLI read it alike.

type Json = unknown;
type Step = string | number;

export interface RunDifference {
  /** index of the run against A (1 = B) */
  run: number;
  /** "B (#12)" */
  who: string;
  /** same scenario name: the same scenario run differently; otherwise different scenarios */
  sameScenario: boolean;
  /** one line per difference, in words */
  lines: string[];
}

/** lines shown per run at most; the rest are counted */
export const MAX_DIFFERENCE_LINES = 12;

const isRecord = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const letter = (i: number) => String.fromCharCode(65 + i);

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(3))} s`);

/** A value in words: times (fields ending in Ms) in ms or s, rates in req/s, strings quoted, the rest as JSON. */
function valueWords(field: Step | undefined, v: Json): string {
  if (v === undefined) return 'not set';
  if (typeof v === 'number' && typeof field === 'string') {
    if (/Ms$/.test(field)) return seconds(v);
    if (field === 'rate' || field === 'rampTo') return `${v} req/s`;
  }
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A field's name in words: `durationMs` -> duration, `rampTo` -> ramp to. */
function fieldWords(field: string): string {
  const known: Record<string, string> = { durationMs: 'duration', thinkMs: 'think time', timeoutMs: 'timeout', maxDurationMs: 'max duration', rampTo: 'ramp to', maxInFlight: 'max in flight', bodyIncludes: 'body includes', rawRowCap: 'raw row cap', startUsers: 'start users', keepAlive: 'keep-alive' };
  return known[field] ?? field;
}

/** Where a path points, in words, read against a scenario that has it: `phase ramp`, `server single`, `request GET /a`. */
function placeWords(scenario: Json, path: readonly Step[]): string {
  const out: string[] = [];
  let node: Json = scenario;
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!;
    const parent = path[i - 1];
    const next: Json = isRecord(node) && typeof step === 'string' ? node[step] : Array.isArray(node) && typeof step === 'number' ? node[step] : undefined;
    if (typeof step === 'number') {
      const item = isRecord(next) ? next : {};
      if (parent === 'phases') out.push(`phase ${phaseName({ name: typeof item.name === 'string' ? item.name : undefined }, step)}`);
      else if (parent === 'servers') out.push(`server ${typeof item.label === 'string' ? item.label : typeof item.architecture === 'string' ? item.architecture : step + 1}`);
      else if (parent === 'requests' && typeof item.path === 'string') out.push(`request ${templateName({ name: typeof item.name === 'string' ? item.name : undefined, method: typeof item.method === 'string' ? item.method : undefined, path: item.path })}`);
      else if (parent === 'stages') out.push(`stage ${step + 1}`);
      else out.push(`${typeof parent === 'string' ? fieldWords(parent).replace(/s$/, '') : 'item'} ${step + 1}`);
    } else if (!['phases', 'servers', 'requests', 'stages', 'options'].includes(step) || i === path.length - 1) out.push(fieldWords(step));
    node = next;
  }
  return out.join(' ');
}

/** What an added or dropped array element is, in words. */
function itemWords(path: readonly Step[], v: Json): string {
  const parent = path[path.length - 2];
  if (parent === 'phases' && isRecord(v) && typeof v.executor === 'string') {
    try {
      return `(${describePhaseLoad(v as unknown as PhaseBase)})`;
    } catch {
      return `(${v.executor})`;
    }
  }
  return '';
}

interface Change {
  path: Step[];
  a: Json;
  b: Json;
}

function changes(a: Json, b: Json, path: Step[], out: Change[]): void {
  if (Object.is(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) changes(a[i], b[i], [...path, i], out);
    return;
  }
  if (isRecord(a) && isRecord(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) changes(a[k], b[k], [...path, k], out);
    return;
  }
  out.push({ path, a, b });
}

/** The quick profile's paths (`phases[0].durationMs`, `phases[*].count`) as steps, `*` for every element. */
function quickPaths(scenario: Json): (Step | '*')[][] {
  const quick = isRecord(scenario) ? scenario.quick : undefined;
  if (!isRecord(quick)) return [];
  return Object.keys(quick).map((p) => [...p.matchAll(/([A-Za-z_$][\w$]*)|\[(\d+|\*)\]/g)].map((m) => (m[1] !== undefined ? m[1] : m[2] === '*' ? '*' : Number(m[2]))));
}

const within = (path: readonly Step[], prefix: readonly (Step | '*')[]) => prefix.length <= path.length && prefix.every((s, i) => s === '*' ? typeof path[i] === 'number' : s === path[i]);

function thresholdWords(t: Json): string {
  if (!isRecord(t)) return JSON.stringify(t) ?? '';
  const scope = [t.phase !== undefined && `phase ${String(t.phase)}`, t.server !== undefined && `server ${String(t.server)}`, t.request !== undefined && `request ${String(t.request)}`].filter(Boolean);
  return `${String(t.check)}${scope.length > 0 ? ` (${scope.join(', ')})` : ''}`;
}

/** The differences of one run's scenario from A's, in words (A's values first). */
export function differenceLines(base: Pick<RunSummary, 'scenario' | 'quick'>, run: Pick<RunSummary, 'scenario' | 'quick'>, who: string): string[] {
  const lines: string[] = [];
  const strip = (s: Json) => (isRecord(s) ? Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'quick' && k !== '$schema' && k !== 'thresholds')) : s);
  // the quick profile: from the run that ran without it (its stored scenario still has it)
  const full = base.quick === run.quick ? null : base.quick ? run : base;
  const quickIn = base.quick === run.quick ? null : base.quick ? 'A' : who;
  const profile = full === null ? [] : quickPaths(full.scenario);
  const found: Change[] = [];
  changes(strip(base.scenario), strip(run.scenario), [], found);
  const byQuick = found.filter((c) => profile.some((p) => within(c.path, p)));
  if (quickIn !== null) {
    if (byQuick.length === 0) lines.push(`quick on in ${quickIn}`);
    const scenarioWithPlaces = base.quick ? run.scenario : base.scenario;
    for (const c of byQuick) lines.push(`quick on in ${quickIn}: ${placeWords(scenarioWithPlaces, c.path)} ${valueWords(c.path[c.path.length - 1], c.a)} -> ${valueWords(c.path[c.path.length - 1], c.b)}`);
  }
  const thresholds = (s: Json) => (isRecord(s) && Array.isArray(s.thresholds) ? s.thresholds : []).map((t) => ({ key: JSON.stringify(t), words: thresholdWords(t) }));
  const [ta, tb] = [thresholds(base.scenario), thresholds(run.scenario)];
  for (const t of tb) if (!ta.some((x) => x.key === t.key)) lines.push(`${who} adds threshold ${t.words}`);
  for (const t of ta) if (!tb.some((x) => x.key === t.key)) lines.push(`${who} drops threshold ${t.words}`);
  for (const c of found) {
    if (byQuick.includes(c)) continue;
    const field = c.path[c.path.length - 1];
    if (typeof field === 'number' && (c.a === undefined || c.b === undefined)) {
      // an element one side lacks: named from the side that has it
      const place = placeWords(c.a === undefined ? run.scenario : base.scenario, c.path);
      const what = itemWords(c.path, c.a ?? c.b);
      lines.push(`${who} ${c.a === undefined ? 'adds' : 'drops'} ${place}${what === '' ? '' : ` ${what}`}`);
    } else lines.push(`${placeWords(c.a === undefined ? run.scenario : base.scenario, c.path) || 'the scenario'} ${valueWords(field, c.a)} -> ${valueWords(field, c.b)}`);
  }
  return lines;
}

/**
 * How the compared runs' scenarios differ from A's: one entry per run that differs (none when all
 * ran the same scenario the same way).
 */
export function scenarioDifferences(runs: readonly (Pick<RunSummary, 'id' | 'scenarioName' | 'scenario' | 'quick'> & Partial<Pick<RunSummary, 'targets'>>)[]): RunDifference[] {
  const base = runs[0];
  if (!base) return [];
  const out: RunDifference[] = [];
  runs.slice(1).forEach((run, k) => {
    const who = `${letter(k + 1)}`;
    const tag = `${who} (#${run.id})`;
    if (run.scenarioName !== base.scenarioName) {
      out.push({ run: k + 1, who: tag, sameScenario: false, lines: [`${tag} ran scenario ${run.scenarioName}, A (#${base.id}) ran ${base.scenarioName}`, ...protocolDifferenceLines(base, run, who)] });
      return;
    }
    // what the loads spoke (h2 against h1-tls, h1 against h1-tls) is a difference even where the scenario text
    // is the same; it comes first (it explains the most, and the cut at MAX_DIFFERENCE_LINES never takes it)
    const lines = [...protocolDifferenceLines(base, run, who), ...differenceLines(base, run, who)];
    if (lines.length === 0) return;
    const shown = lines.length > MAX_DIFFERENCE_LINES ? [...lines.slice(0, MAX_DIFFERENCE_LINES - 1), `and ${lines.length - MAX_DIFFERENCE_LINES + 1} more`] : lines;
    out.push({ run: k + 1, who: tag, sameScenario: true, lines: shown });
  });
  return out;
}

/** The differences as plain lines (--json, the HTML and CSV exports): each run's heading, then its lines. */
export function scenarioDifferenceText(runs: readonly (Pick<RunSummary, 'id' | 'scenarioName' | 'scenario' | 'quick'> & Partial<Pick<RunSummary, 'targets'>>)[]): string[] {
  return scenarioDifferences(runs).flatMap((d) => (d.sameScenario ? d.lines.map((l) => `${d.who}, the same scenario run differently: ${l}`) : d.lines));
}
