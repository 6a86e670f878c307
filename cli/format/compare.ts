import type { CompareResult } from '../../contract/api.js';
import { beyondNoise, COMPARE_METRICS, intervalKey, intervalWords, judgeInterval, pairPhases, TOO_WIDE_SPAN, type RatioInterval } from '../../contract/compare.js';
import { compareSummary, SUMMARY_COLUMNS } from '../../contract/compare-summary.js';
import { scenarioDifferences } from '../../contract/scenario-differences.js';
import { glossaryLines } from '../../contract/measurement.js';
import { formatExplanation } from './compare-explanation.js';
import { fmtMs, fmtNum, textTable } from './table.js';
import { terminalSafeInline } from './terminal-safe.js';
import { pairChecks, passRateText } from '../../contract/report/check-table.js';

// `loadscope compare`: the same pairing and intervals as the UI's Compare view (contract/compare.ts).

const fmtRatio = (r: number) => `x${r.toFixed(2)}`;

function indexIntervals(intervals: readonly RatioInterval[]): Map<string, RatioInterval> {
  return new Map(intervals.map((i) => [intervalKey(i.pairKey, i.metric, i.run), i]));
}

/** Runs side by side, one table per paired phase; each later run with its ratio to the first, "*" where beyond the noise. */
export function formatCompare(result: CompareResult): string {
  const { runs } = result;
  const intervals = indexIntervals(result.intervals);
  const header = ['metric', ...runs.flatMap((r, i) => (i === 0 ? [`run ${r.id}`] : [`run ${r.id}`, `vs ${runs[0]!.id}`]))];
  const sections = pairPhases(runs).map((pair) => {
    const rows = COMPARE_METRICS.map((m) => {
      const base = pair.runs[0] ? m.get(pair.runs[0].phase, pair.runs[0].engine) : null;
      return [
        m.label,
        ...pair.runs.flatMap((entry, i) => {
          const v = entry ? m.get(entry.phase, entry.engine) : null;
          const text = m.label.endsWith('(ms)') ? fmtMs(v) : fmtNum(v, m.key === 'throughput' ? 1 : 0);
          if (i === 0) return [text];
          if (!entry || !pair.runs[0] || base === null || base === undefined || v === null || v === undefined || base === 0) return [text, '-'];
          const interval = intervals.get(intervalKey(pair.key, m.key, i));
          const judged = judgeInterval(interval);
          // "*" beyond the noise; "?" too short / too variable to judge (only where a figure has an interval)
          return [text, `${fmtRatio(v / base)}${judged === 'beyond' ? '*' : m.interval !== null && (judged === 'too short' || judged === 'too variable') ? '?' : ''}`];
        }),
      ];
    });
    // an endpoint pair is named by its endpoint after its phase; a name's line break cannot start a line of its own
    return `${terminalSafeInline(pair.endpoint === null ? pair.key : `${pair.server} / ${pair.phase} / endpoint ${pair.endpoint}`)}\n${textTable(header, rows)}`;
  });
  const heads = runs.map((r) => `run ${r.id}: ${r.title} (${r.scenarioName}${r.quick ? ', quick' : ''}), ${r.status}, ${r.createdAt}`);
  const glance = summaryTable(result);
  // the same scenario run differently is said as such, each difference a line (contract/scenario-differences.ts)
  const warnings = scenarioDifferences(runs).flatMap((d) =>
    d.sameScenario ? [`note: ${d.who} is the same scenario, run differently:`, ...d.lines.map((l) => `  ${terminalSafeInline(l)}`)] : d.lines.map((l) => `warning: different scenarios: ${terminalSafeInline(l)}`),
  );
  const footer = ['', '"-": no such server run and phase (or endpoint) in that run (pairs are by server, matrix cell and phase name, and a split phase\'s endpoints by request name)', '"*": beyond run-to-run noise (the 95 % bootstrap interval of the ratio excludes 1)', `"?": too short / too variable to judge (no interval, or one that holds 1 and spans more than x${TOO_WIDE_SPAN}; --json says why)`, ...glossaryLines(['total', 'wait', 'processing', 'ttfb', 'transfer'])];
  // what moved and what moved with it, under the tables it reads from
  const changed = formatExplanation(result.explanation);
  return [...heads, ...warnings, '', ...glance, ...sections, ...checksTable(result), ...(changed.length > 0 ? ['', ...changed] : []), ...footer].join('\n');
}

/** Each check of each endpoint with every run's pass rate (contract/report/check-table.ts), after the phases; nothing when no run has checks. */
function checksTable(result: CompareResult): string[] {
  const pairs = pairChecks(result.runs);
  if (pairs.length === 0) return [];
  const header = ['server / phase / endpoint', 'check', ...result.runs.map((r) => `pass rate #${r.id}`)];
  const rows = pairs.map((p) => [`${p.server} / ${p.phase} / ${p.endpoint}`, p.check, ...p.rows.map((r) => (r === null ? '-' : passRateText(r.rate)))]);
  return ['', 'checks:', textTable(header, rows)];
}

const SHORT: Record<string, string> = { throughput: 'req/s', 'total.p50': 'p50 (ms)', 'total.p99': 'p99 (ms)', errors: 'errors' };

/** Several server runs (a matrix): a row each, its key figures for every run and each against the first (contract/compare-summary.ts), before the tables of every figure. */
function summaryTable(result: CompareResult): string[] {
  const rows = compareSummary(result.runs, result.intervals);
  if (rows.length === 0) return [];
  const { runs } = result;
  const phases = new Set(rows.map((r) => r.phase)).size > 1;
  const header = [phases ? 'server run / phase' : 'server run', ...SUMMARY_COLUMNS.flatMap((c) => [...runs.map((r) => `${SHORT[c.key]} #${r.id}`), ...(c.metric === null ? [] : runs.slice(1).map(() => `vs #${runs[0]!.id}`))])];
  const body = rows.map((row) => [
    phases ? `${row.server} / ${row.phase}` : row.server,
    ...SUMMARY_COLUMNS.flatMap((c, k) => {
      const cell = row.cells[k]!;
      const values = cell.values.map((v) => (c.key === 'throughput' ? fmtNum(v, 1) : c.metric === null ? fmtNum(v) : fmtMs(v)));
      const ratios = c.metric === null ? [] : cell.ratios.slice(1).map((r, i) => (r === null ? '-' : `${fmtRatio(r)}${cell.judgements[i + 1] === 'beyond' ? '*' : cell.judgements[i + 1] === 'too short' || cell.judgements[i + 1] === 'too variable' ? '?' : ''}`));
      return [...values, ...ratios];
    }),
  ]);
  return ['each server run at a glance:', textTable(header, body), ''];
}

/** The --json document: runs, pairs with every figure, each ratio with its interval, the differences and what moved. */
export function compareJson(result: CompareResult) {
  const intervals = indexIntervals(result.intervals);
  return {
    runs: result.runs.map((r) => ({ runId: r.id, scenario: r.scenarioName, title: r.title, status: r.status, quick: r.quick })),
    differences: result.differences,
    /** what moved between the first run and each other, and what moved with it */
    explanation: result.explanation,
    pairs: pairPhases(result.runs).map((pair) => ({
      server: pair.server,
      phase: pair.phase,
      /** the endpoint (request name) of an endpoint pair; null for the phase as a whole */
      endpoint: pair.endpoint,
      figures: COMPARE_METRICS.map((metric) => ({
        metric: metric.key,
        label: metric.label,
        values: pair.runs.map((e) => (e ? (metric.get(e.phase, e.engine) ?? null) : null)),
        ratios: pair.runs.slice(1).map((e, k) => {
          const base = pair.runs[0] ? metric.get(pair.runs[0].phase, pair.runs[0].engine) : null;
          const v = e ? metric.get(e.phase, e.engine) : null;
          if (base === null || base === undefined || base === 0 || v === null || v === undefined) return null;
          const interval = intervals.get(intervalKey(pair.key, metric.key, k + 1));
          const judgement = metric.interval === null ? null : judgeInterval(interval);
          return { ratio: v / base, low: interval?.low ?? null, high: interval?.high ?? null, beyondNoise: beyondNoise(interval), judgement, why: judgement === null ? null : intervalWords(interval), ...(interval?.basis !== undefined && { basis: interval.basis }) };
        }),
      })),
    })),
  };
}
