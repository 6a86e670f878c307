import { InvalidArgumentError, Option, type Command } from 'commander';
import { BASELINE_PROFILES, type BaselineProfile } from '../../contract/baselines.js';
import { TREND_LAST_MAX, TREND_METRIC_LABELS, TREND_METRICS, unfinishedStatus, type Trend, type TrendMetric, type TrendRow, type TrendValue } from '../../contract/trends.js';
import { terminalSafeInline } from '../format/terminal-safe.js';
import { fmtMs, fmtNum, textTable } from '../format/table.js';
import { dbOption, withEngine } from '../options.js';

// `loadscope trend SCENARIO`: one figure of a scenario over its last runs (issue 27), read from the
// stored summaries. Runs down, one column per server, phase and endpoint; a repeated group is one
// line, its mean with the interval between its runs; the pinned baseline last.

function valueText(metric: TrendMetric, v: number): string {
  if (metric === 'throughput' || metric === 'messages.rate') return fmtNum(v, 1);
  if (metric === 'errors.rate') return `${fmtNum(v * 100, 2)}%`;
  return fmtMs(v);
}

function cell(metric: TrendMetric, v: TrendValue | null): string {
  if (v === null) return '-';
  const shown = valueText(metric, v.value);
  return v.low === null || v.high === null ? shown : `${shown} (${valueText(metric, v.low)}-${valueText(metric, v.high)})`;
}

const seriesName = (r: TrendRow) => [r.server, r.phase, ...(r.endpoint === null ? [] : [r.endpoint])].join(' · ');

export function trendText(trend: Trend): string {
  const name = terminalSafeInline(trend.scenarioName);
  if (trend.columns.length === 0) return `no completed run of ${name} is stored${trend.profile === null ? '' : ` (${trend.profile})`}`;
  const rows = trend.columns.map((c, i) => [
    c.runIds.length > 1 ? `${c.runIds[0]}-${c.runIds[c.runIds.length - 1]} (group of ${c.runIds.length})` : `${c.runIds[0]}${unfinishedStatus(c) === null ? '' : ` (${unfinishedStatus(c)})`}`,
    c.createdAt.replace('T', ' ').slice(0, 16),
    c.label,
    ...trend.rows.map((r) => cell(trend.metric, r.values[i] ?? null)),
  ]);
  if (trend.baselineRunIds !== null) rows.push([`baseline ${trend.baselineRunIds.join(', ')}`, '', '', ...trend.rows.map((r) => cell(trend.metric, r.baseline))]);
  const header = ['run', 'created', 'name', ...trend.rows.map((r) => terminalSafeInline(seriesName(r)))];
  const lines = [
    `${TREND_METRIC_LABELS[trend.metric]} of ${name} (${trend.profile}), last ${trend.columns.length} (a group: its mean, with the 95 % interval between its runs)`,
    textTable(header, rows),
  ];
  if (trend.baselineRunIds === null) lines.push(`no baseline pinned for ${name} (${trend.profile}): \`loadscope baseline set RUN\` pins one`);
  return lines.join('\n');
}

function parseLast(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > TREND_LAST_MAX) throw new InvalidArgumentError(`--last takes a whole number from 1 to ${TREND_LAST_MAX}, got '${value}'`);
  return n;
}

export function registerTrend(program: Command): void {
  program
    .command('trend')
    .description("a scenario's figure over its last runs (per server, phase and endpoint), a repeated group as its mean with an interval, the pinned baseline beside it")
    .argument('<scenario>', 'a scenario name (see `loadscope list`)')
    .addOption(new Option('--metric <metric>', 'the figure').choices(TREND_METRICS).default('total.p99'))
    .option('--last <n>', 'how many runs (a repeated group counts once)', parseLast, 20)
    .addOption(new Option('--profile <profile>', "quick or full runs (default: the newest run's)").choices(BASELINE_PROFILES))
    .option('--json', 'print JSON', false)
    .addOption(dbOption())
    .action(async (scenarioName: string, opts: { metric: TrendMetric; last: number; profile?: BaselineProfile; json: boolean; db?: string }) => {
      await withEngine(opts.db, async (engine) => {
        const trend = await engine.handlers['runs:trend']({ scenarioName, metric: opts.metric, last: opts.last, profile: opts.profile });
        process.stdout.write((opts.json ? JSON.stringify(trend, null, 2) : trendText(trend)) + '\n');
      });
    });
}
