import { useMemo } from 'react';
import type { RatioInterval } from '../../contract/compare';
import { compareSummary, SUMMARY_COLUMNS } from '../../contract/compare-summary';
import type { RunSummary } from '../../contract/results';
import { count, num } from '../ui/format';
import { intervalText, ratioClass } from './ratio-colour';

// A matrix Compare at a glance (contract/compare-summary.ts): a row per server run and phase, each
// key figure for every run side by side with its ratio to A, coloured only beyond the noise as the
// paired tables below colour it. Its names drop what every row shares and wrap rather than cut.

const letter = (i: number) => String.fromCharCode(65 + i);
const ratioText = (r: number | null) => (r === null ? '–' : `${r >= 10 ? r.toFixed(1) : r.toFixed(2)}×`);

/** `intervals`: null while runs:compare computes them (ratios shown, not yet judged). */
export function CompareSummary({ runs, intervals }: { runs: readonly RunSummary[]; intervals: readonly RatioInterval[] | null }) {
  const rows = useMemo(() => compareSummary(runs, intervals ?? []), [runs, intervals]);
  if (rows.length === 0) return null;
  const phases = new Set(rows.map((r) => r.phase)).size > 1;
  return (
    <section data-testid="compare-summary" data-rows={rows.length} data-judged={intervals === null ? 'no' : 'yes'}>
      <h2 className="section-title">
        Each server run at a glance <span className="muted">every run's figures side by side, and each against A</span>
      </h2>
      <div className="table-wrap panel">
        <table className="data compact compare-summary">
          <thead>
            <tr>
              <th className="left" rowSpan={2}>
                server run
              </th>
              {phases && (
                <th className="left" rowSpan={2}>
                  phase
                </th>
              )}
              {SUMMARY_COLUMNS.map((c) => (
                <th key={c.key} className="group" colSpan={runs.length + (c.metric === null ? 0 : runs.length - 1)}>
                  {c.label}
                </th>
              ))}
            </tr>
            <tr>
              {SUMMARY_COLUMNS.flatMap((c) => [
                ...runs.map((r, i) => (
                  <th key={`${c.key}-${r.id}`} title={`run #${r.id}`}>
                    {letter(i)}
                  </th>
                )),
                ...(c.metric === null ? [] : runs.slice(1).map((r, i) => <th key={`${c.key}-r${r.id}`} className="ratio-col">{letter(i + 1)}/A</th>)),
              ])}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} data-testid="summary-row" data-server={row.server} data-phase={row.phase}>
                <td className="left summary-name" title={row.title} data-testid="summary-name">
                  {row.short.split('\n').map((line, i) => (
                    <span key={i} className="summary-line">
                      {line}
                    </span>
                  ))}
                </td>
                {phases && <td className="left">{row.phase}</td>}
                {SUMMARY_COLUMNS.flatMap((c, k) => {
                  const cell = row.cells[k]!;
                  const values = cell.values.map((v, i) => (
                    <td key={`${c.key}-${i}`} className="num" data-field={c.key} data-value={v ?? ''}>
                      {v === null ? '-' : c.metric === null ? count(v) : num(v)}
                    </td>
                  ));
                  const metric = c.metric;
                  if (metric === null) return values;
                  const ratios = cell.ratios.slice(1).map((r, i) => {
                    const interval = cell.intervals[i + 1];
                    const judged = cell.judgements[i + 1] ?? null;
                    return (
                      <td key={`${c.key}-r${i}`} className={`num ratio-col ${judged === null ? '' : ratioClass(metric, interval)}`} title={judged === null ? undefined : intervalText(interval)} data-field={`${c.key}-ratio`} data-judgement={judged ?? undefined}>
                        {ratioText(r)}
                      </td>
                    );
                  });
                  return [...values, ...ratios];
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
