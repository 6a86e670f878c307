import type { Scenario } from '../contract/scenario.js';
import { aggregateMetric, collectPoints, type ReportRun } from '../engine/report/points.js';
import { dimName, valueLabel } from '../engine/report/render-report.js';
import type { Headline } from './seeds.js';

// "Who wins, and by what ratio": in each matrix cell, the servers ranked by the scenario's headline
// figure (lower is better), each with its ratio to the winner.

export interface Ranked {
  server: string;
  value: number;
  /** value / the winner's value */
  ratio: number;
}

export interface CellRanking {
  /** the cell's matrix values, e.g. "count=10", or '' without a matrix */
  cell: string;
  ranking: Ranked[];
  /** servers with no figure in this cell (skipped, failed before the phase) */
  missing: string[];
}

export function cellLabel(params: Readonly<Record<string, unknown>>): string {
  return Object.entries(params)
    .map(([key, value]) => `${dimName(key)}=${valueLabel(value)}`)
    .join(', ');
}

export function rankServers(headline: Headline, scenario: Pick<Scenario, 'phases'>, run: ReportRun): CellRanking[] {
  const points = collectPoints(scenario, run).filter((p) => headline.phase === undefined || p.phase === headline.phase);
  const cells = [...run.cells].sort((a, b) => a.index - b.index);
  // A run without a matrix still has its one cell; a run with no cells at all has none to rank.
  const indexes = cells.length > 0 ? cells.map((c) => c.index) : [...new Set(points.map((p) => p.cellIndex))];
  return indexes.map((index): CellRanking => {
    const inCell = points.filter((p) => p.cellIndex === index);
    const servers = [...new Set(inCell.map((p) => p.server))];
    const values = servers.map((server) => ({ server, value: aggregateMetric(inCell.filter((p) => p.server === server), headline.metric) }));
    const known = values.filter((v): v is { server: string; value: number } => v.value !== null).sort((a, b) => a.value - b.value);
    const best = known[0]?.value ?? 0;
    return {
      cell: cellLabel(cells.find((c) => c.index === index)?.params ?? {}),
      ranking: known.map(({ server, value }) => ({ server, value, ratio: best > 0 ? value / best : Number.NaN })),
      missing: values.filter((v) => v.value === null).map((v) => v.server),
    };
  });
}
