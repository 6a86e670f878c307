import { runCapacity, type ServerCapacity } from '../../contract/capacity/run-capacity.js';
import { thinNote } from '../../contract/capacity/steps.js';
import { bracketText, CAPACITY_MEANS, LOWER_BOUND_NOTE, modeOf, OFFERED_UNIT, offeredText, sustainableText } from '../../contract/capacity/search.js';
import { uslTrusted } from '../../contract/capacity/usl.js';
import type { LiveWindow, RunSummary, ServerSample } from '../../contract/results.js';
import { fmtMs, fmtNum, textTable } from './table.js';

// A capacity search's figures as `loadscope show` and `loadscope run` print them: one line per server
// (the sustainable load, req/s or users, with its bracket, what limited it, the knee, the scalability fit), then each
// server's steps. `capacityJson` is the same figures for --json. A search the machine could not drive
// prints its sustainable load as "≥ n" and the lower-bound note once under the table; a poor USL fit
// prints its figures in brackets with the reason (the workbench greys them).

const rate = (r: number | null) => (r === null ? '-' : fmtNum(r, Number.isInteger(r) || r >= 100 ? 0 : 1));
const sig = (v: number) => (Number.isFinite(v) ? Number(v.toPrecision(3)).toString() : '∞');
const range = ([lo, hi]: [number, number]) => `${sig(lo)}–${sig(hi)}`;
const num = (r: number) => rate(r);

export function formatCapacity(servers: readonly ServerCapacity[]): string {
  const mode = modeOf(servers);
  const unit = OFFERED_UNIT[mode];
  const head = ['server', `sustainable (${unit})`, `bracket (${unit})`, 'limited by', 'knee', 'search ended', 'USL σ', 'USL κ', 'USL peak (req/s)', 'USL R²'];
  const rows = servers.map(({ name, capacity: { result, steps, usl, ended } }) => {
    // a poor fit's figures are printed in brackets: shown, but not a prediction (the note says why)
    const fit = (text: string) => (usl && !uslTrusted(usl) ? `[${text}]` : text);
    return [
      name,
      sustainableText(result, num),
      bracketText(result, num),
      result.limitedBy,
      result.kneeStep === null ? '-' : mode === 'users' ? offeredText(mode, steps[result.kneeStep]!.offered) : `${rate(steps[result.kneeStep]!.offered)} ${unit}`,
      ended,
      usl ? fit(`${sig(usl.sigma)} (${range(usl.interval.sigma)})`) : '-',
      usl ? fit(`${sig(usl.kappa)} (${range(usl.interval.kappa)})`) : '-',
      usl ? fit(`${sig(usl.peakX)} (${range(usl.interval.peakX)})`) : '-',
      usl ? fit(sig(usl.r2)) : '-',
    ];
  });
  const why = servers.map(({ name, capacity }) => `  ${name}: ${capacity.result.detail}${capacity.uslNote ? `; USL: ${capacity.uslNote}` : ''}`);
  const bounded = servers.filter((s) => s.capacity.result.lowerBound).map((s) => s.name);
  const thin = thinNote(servers);
  const note = [...(bounded.length === 0 ? [] : [`  Note: ${LOWER_BOUND_NOTE}: ${bounded.join(', ')}.`]), ...(thin === null ? [] : [`  Note: ${thin}.`])];
  const stepHead = ['server', `offered (${unit})`, 'achieved (req/s)', 'total p50 (ms)', 'total p90 (ms)', 'total p99 (ms)', 'wait p99 (ms)', 'processing p99 (ms)', 'server CPU (%)', 'in flight', 'verdict'];
  const stepRows = servers.flatMap(({ name, capacity }) =>
    capacity.steps.map((s, i) => [
      i === 0 ? name : '',
      rate(s.offered),
      fmtNum(s.throughput, 1),
      fmtMs(s.total.p50),
      fmtMs(s.total.p90),
      fmtMs(s.total.p99),
      fmtMs(s.wait?.p99),
      fmtMs(s.processing?.p99),
      s.cpuPercent === null ? '-' : fmtNum(s.cpuPercent, 0),
      fmtNum(s.concurrency, 1),
      s.verdict.held ? 'held' : `broke: ${s.verdict.detail}`,
    ]),
  );
  return [
    `Capacity (${CAPACITY_MEANS[mode]})`,
    textTable(head, rows),
    ...note,
    ...why,
    '',
    'Capacity search steps (in flight: throughput x mean total time, the concurrency the USL is fitted against)',
    textTable(stepHead, stepRows),
  ].join('\n');
}

export function capacityJson(servers: readonly ServerCapacity[]) {
  return servers.map(({ targetId, name, capacity }) => ({
    targetId,
    name,
    mode: capacity.mode,
    unit: OFFERED_UNIT[capacity.mode],
    sustainable: capacity.result.sustainable,
    interval: capacity.result.interval,
    lowerBound: capacity.result.lowerBound,
    limitedBy: capacity.result.limitedBy,
    detail: capacity.result.detail,
    knee: capacity.result.kneeStep === null ? null : capacity.steps[capacity.result.kneeStep]!.offered,
    ended: capacity.ended,
    uslTrusted: capacity.usl !== null && uslTrusted(capacity.usl),
    usl: capacity.usl && { lambda: capacity.usl.lambda, sigma: capacity.usl.sigma, kappa: capacity.usl.kappa, peakN: capacity.usl.peakN, peakX: capacity.usl.peakX, rmse: capacity.usl.rmse, r2: capacity.usl.r2, interval: capacity.usl.interval },
    uslNote: capacity.uslNote,
    steps: capacity.steps,
  }));
}

/** A run's capacity figures, reading its windows only when its scenario is a capacity search. */
export async function storedCapacity(run: RunSummary, windows: () => Promise<{ windows: LiveWindow[]; samples: ServerSample[] }>): Promise<ServerCapacity[] | null> {
  if ((run.scenario as { capacity?: unknown } | null)?.capacity === undefined) return null;
  return runCapacity(run, await windows());
}
