import { parseThresholdCheck, type ParsedCheck } from '../../contract/thresholds.js';
import type { Scenario } from '../../contract/scenario.js';
import { quoted } from './k6-literal.js';
import { knownLengthMs } from './k6-plan.js';
import { defaultPhaseName, isOpenLoop, phaseName } from '../../contract/phase.js';
import { templateName } from '../../contract/template-name.js';

// A scenario's thresholds as k6 thresholds, so an exported script gates a k6-operator run as
// `loadscope run` would: `total.p99 < 250` on phase "steady" -> 'loadscope_total{phase:steady}': ['p(99)<250'].
// Loadscope checks a threshold against each phase on its own, so one without a phase becomes one k6
// threshold per phase (an untagged k6 threshold would judge all phases pooled). Every k6 form that is
// not exactly Loadscope's quantity, and every check left out, gets a note in the script's header.
// A threshold on one request (endpoint) becomes a submetric of its name too, on loadscope_total
// and the stream trends: the metrics the script tags with the request's name (k6-runtime.ts,
// k6-runtime-stream.ts).

const TRENDS: Record<string, string> = { total: 'loadscope_total', wait: 'loadscope_wait', processing: 'loadscope_proc', serverWait: 'loadscope_server_wait', ttfe: 'loadscope_ttfe', gap: 'loadscope_gap', rtt: 'loadscope_rtt' };
/** The trends tagged with the request's name: a threshold on one request can be their submetric. */
const NAMED_TRENDS = new Set([TRENDS.total, TRENDS.ttfe, TRENDS.gap, TRENDS.rtt]);
/** The script's per-request counters (k6-runtime.ts): a Counter of requests, a Counter and a Rate of errors. */
export const K6_COUNT_METRICS = { requests: 'loadscope_requests', errorCount: 'loadscope_error_count', errorRate: 'loadscope_errors' } as const;

export interface K6Thresholds {
  /** options.thresholds: k6 expressions by (sub)metric */
  thresholds: Record<string, string[]>;
  /** one line per check that k6 judges differently from Loadscope, or cannot judge */
  notes: string[];
}

function k6Stat(stat: string): string | null {
  if (stat === 'mean') return 'avg';
  if (stat === 'min' || stat === 'max') return stat;
  if (stat === 'p999') return 'p(99.9)';
  const m = /^p(\d+)$/.exec(stat);
  return m ? `p(${m[1]})` : null;
}

type Phases = Scenario['phases'];
type Mapped = { metric: string; expr: string; note?: string } | { skip: string };

/** One check on one phase as a k6 threshold, or why it has none. */
function mapCheck(c: ParsedCheck, phase: Phases[number], name: string): Mapped {
  // The phase's name goes into a note (a comment of the script): quoted, never verbatim.
  const phaseName = quoted(name);
  const dropsNote = isOpenLoop(phase) ? ` (k6 counts requests it sent: its dropped_iterations, which Loadscope counts as unsent requests, are not in it)` : '';
  switch (c.metric) {
    case 'count':
      return { metric: K6_COUNT_METRICS.requests, expr: `count${c.op}${c.limit}`, note: dropsNote ? `count on ${phaseName}${dropsNote}` : undefined };
    case 'errors':
    case 'errors.count':
      return { metric: K6_COUNT_METRICS.errorCount, expr: `count${c.op}${c.limit}`, note: dropsNote ? `${c.metric} on ${phaseName}${dropsNote}` : undefined };
    case 'errors.rate':
      return { metric: K6_COUNT_METRICS.errorRate, expr: `rate${c.op}${c.limit}`, note: dropsNote ? `errors.rate on ${phaseName}${dropsNote}` : undefined };
    case 'throughput': {
      // k6's Counter rate divides by the whole test's duration, not the phase's: a different quantity.
      const ms = knownLengthMs(phase);
      if (ms === null) return { skip: `throughput on ${phaseName} is not exported: k6's rate is per second of the whole test, and this phase's length is not known in advance` };
      const limit = Number(((c.limit * ms) / 1000).toFixed(6));
      return { metric: K6_COUNT_METRICS.requests, expr: `count${c.op}${limit}`, note: `throughput ${c.op} ${c.limit} on ${phaseName} is exported as count ${c.op} ${limit} (over the phase's planned ${ms} ms; Loadscope divides by its measured duration; k6's own rate would be over the whole test)` };
    }
    case 'durationMs':
      return { skip: `durationMs on ${phaseName} is not exported: k6 has no metric of one phase's duration` };
    default: {
      const [family, stat] = c.metric.split('.');
      const trend = family === undefined ? undefined : TRENDS[family];
      const k6 = stat === undefined ? null : k6Stat(stat);
      if (trend === undefined || k6 === null) return { skip: `${c.metric} on ${phaseName} is not exported: no k6 metric` };
      // the open gap a stream's error cut is a gap to Loadscope, metadata on its end to the script
      const note = family === 'gap' ? `${c.metric} on ${phaseName}: k6's loadscope_gap leaves out the gap a stream's error cut, which Loadscope counts` : undefined;
      return { metric: trend, expr: `${k6}${c.op}${c.limit}`, ...(note !== undefined && { note }) };
    }
  }
}

/** The name tag of a threshold on one request, or why k6 cannot judge it. */
function requestTag(mapped: Mapped, request: string, phase: string): { tag: string } | { skip: string } {
  const where = `on request ${quoted(request)} of ${quoted(phase)}`;
  if ('skip' in mapped || !NAMED_TRENDS.has(mapped.metric)) return { skip: `a check ${where} is exported only on total, ttfe, gap and rtt (the metrics the script tags with the request's name)` };
  // k6 reads ',' ':' '}' and quotes in a tag list: such a name cannot be a submetric tag
  if (!/^[\w./ -]+$/.test(request) || request !== request.trim()) return { skip: `a check ${where} is not exported: k6 cannot tag a submetric with that name` };
  return { tag: `name:${request}` };
}

/**
 * k6 thresholds for one server's script, each on the submetric of its phase (tag `phase`, or
 * `phase_idx` where two phases share a name, or it has a character k6 reads in a tag list). `server` names the server as a threshold may: its label
 * and its architecture.
 */
export function k6Thresholds(scenario: Pick<Scenario, 'thresholds' | 'phases'>, server: string | readonly string[]): K6Thresholds {
  const serverNames: readonly string[] = typeof server === 'string' ? [server] : server;
  const names = scenario.phases.map((p, i) => phaseName(p, i));
  // k6 splits a submetric's tags on ',' and ':', ends them at '}' and trims spaces and quotes: a name
  // that is not plain words is tagged by index, as is one that two phases share.
  const byIndex = (i: number) => names.filter((n) => n === names[i]).length > 1 || !/^[\w.-]+(?: [\w.-]+)*$/.test(names[i]!);
  const tagOf = (i: number) => (byIndex(i) ? `phase_idx:${i}` : `phase:${names[i]}`);
  const out: K6Thresholds = { thresholds: {}, notes: [] };
  for (const t of scenario.thresholds ?? []) {
    if (t.server !== undefined && !serverNames.includes(t.server)) continue;
    const parsed = parseThresholdCheck(t.check);
    if (!parsed) continue;
    scenario.phases.forEach((phase, i) => {
      if (t.phase !== undefined && t.phase !== phase.name && t.phase !== defaultPhaseName(i)) return;
      if (t.request !== undefined && !phase.requests.some((r) => templateName(r) === t.request)) return;
      const mapped = mapCheck(parsed, phase, names[i]!);
      const request = t.request === undefined ? null : requestTag(mapped, t.request, names[i]!);
      if ('skip' in mapped || (request !== null && 'skip' in request)) {
        const why = 'skip' in mapped ? mapped.skip : (request as { skip: string }).skip;
        out.notes.push(`${why} (${quoted(t.check.trim())}; Loadscope checks it when the result is imported).`);
        return;
      }
      (out.thresholds[`${mapped.metric}{${tagOf(i)}${request === null ? '' : `,${request.tag}`}}`] ??= []).push(mapped.expr);
      if (mapped.note) out.notes.push(`${mapped.note}.`);
    });
  }
  return out;
}
