import { cellTitle } from '../../contract/cells';
import type { CompareResult } from '../../contract/api';
import { beyondNoise, compareMetricsOf, intervalKey, judgeInterval, pairPhases } from '../../contract/compare';
import { phaseFigures } from '../../contract/engine-figures';
import { figureSample } from '../../contract/figures';
import { count, num, ratio } from '../ui/format';
import { Panel } from '../ui/widgets';
import { intervalText, ratioClass } from './ratio-colour';

// Pairs by server label, matrix cell and phase name, and a split phase's endpoints by request name
// (contract/compare.ts, the same as the CLI's `compare`): a run without that server run and phase shows "-". A ratio is coloured only when its
// 95 % bootstrap interval excludes 1; the interval is on hover. One too wide to judge (or none) says
// "too short" / "too variable" in the cell instead, with why on hover.

/** One table per paired phase: each run's figures side by side, and every run against the first as B/A. */
export function CompareTable({ result }: { result: CompareResult }) {
  const { runs } = result;
  if (runs.length === 0) return null;
  const intervals = new Map(result.intervals.map((i) => [intervalKey(i.pairKey, i.metric, i.run), i]));
  const letter = (i: number) => String.fromCharCode(65 + i);
  /** the paired server run's name in full (its matrix cell as key=value), from the first run that has it */
  const fullName = (entries: readonly ({ targetId: number } | null)[]): string | undefined => {
    const i = entries.findIndex((e) => e !== null);
    const t = runs[i]?.targets.find((x) => x.id === entries[i]?.targetId);
    return t === undefined ? undefined : cellTitle(t.label, runs[i]!.cells, t.cellIndex);
  };
  return (
    <div className="compare-tables" data-testid="compare-table">
      {pairPhases(runs).map((pair) => (
        <Panel
          key={pair.key}
          className={pair.endpoint === null ? undefined : 'endpoint-pair'}
          title={
            <>
              <span title={fullName(pair.runs)} data-testid="pair-name">{pair.server}</span> <span className="muted">· {pair.phase}</span>
              {/* an endpoint of a split phase, paired by its request name */}
              {pair.endpoint !== null && <> <span className="muted">· endpoint</span> <span data-testid="pair-endpoint">{pair.endpoint}</span></>}
            </>
          }
          testId={pair.endpoint === null ? 'compare-pair' : 'compare-endpoint-pair'}
        >
          <table className="data compact">
            <thead>
              <tr>
                <th className="left">metric</th>
                {runs.map((r, i) => (
                  <th key={r.id}>
                    {letter(i)}: #{r.id}
                    {r.engine === 'k6' && <span className="muted" title={r.engineNote ?? 'load sent by k6'}> (k6)</span>}
                  </th>
                ))}
                {runs.slice(1).map((r, i) => (
                  <th key={`ratio-${r.id}`} className="ratio-col">
                    {letter(i + 1)}/A
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {compareMetricsOf(pair.runs).map((m) => {
                const values = pair.runs.map((e) => (e === null ? null : m.get(e.phase, e.engine)));
                return (
                  <tr key={m.key} data-metric={m.key}>
                    <td className="left">{m.label}</td>
                    {values.map((v, i) => {
                      // a figure the run's engine did not measure: "–" with why (contract/engine-figures.ts)
                      const e = pair.runs[i];
                      const sample = figureSample(m.key);
                      const why = e === null || sample === null ? undefined : phaseFigures(e.engine, e.phase).missing[sample];
                      return (
                        <td key={i} className="num" title={why} data-not-measured={why === undefined ? undefined : '1'}>
                          {e === null ? '-' : m.isCount === true ? count(v) : num(v)}
                        </td>
                      );
                    })}
                    {values.slice(1).map((v, k) => {
                      const paired = pair.runs[0] !== null && pair.runs[k + 1] !== null;
                      const interval = intervals.get(intervalKey(pair.key, m.key, k + 1));
                      const shown = paired ? ratio(values[0], v) : '-';
                      // a figure with an interval that cannot be judged says so (contract/compare.ts: too short / too variable)
                      const judged = paired && shown !== '-' && m.interval !== null ? judgeInterval(interval) : null;
                      const unjudged = judged === 'too short' || judged === 'too variable' ? judged : null;
                      return (
                        <td key={`r${k}`} className={`num ratio-col ${paired ? ratioClass(m, interval) : ''}`} title={paired ? (m.interval === null ? 'no interval for this figure: never coloured' : intervalText(interval)) : 'not in both runs'} data-beyond-noise={paired && beyondNoise(interval) ? 'true' : 'false'} data-judgement={judged ?? undefined}>
                          {shown}
                          {unjudged !== null && <span className="unjudged">{unjudged}</span>}
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Panel>
      ))}
    </div>
  );
}
