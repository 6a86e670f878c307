import { cellTitle, nameLines } from '../../contract/cells';
import { useMemo, useState } from 'react';
import { phaseFigures } from '../../contract/engine-figures';
import type { CellInfo, RunEngine, TargetResult } from '../../contract/results';
import { MeanBarChart, type MeanBar } from '../charts/MeanBarChart';
import { Panel } from '../ui/widgets';

const ALL = '(all phases)';

/** Count-weighted mean over the chosen phases of one server run. */
function meanOf(t: TargetResult, phase: string, pick: (p: TargetResult['phases'][number]) => number | null | undefined): number | null {
  let sum = 0;
  let n = 0;
  for (const p of t.phases) {
    if (phase !== ALL && p.name !== phase) continue;
    const v = pick(p);
    if (v === null || v === undefined || p.count === 0) continue;
    sum += v * p.count;
    n += p.count;
  }
  return n === 0 ? null : sum / n;
}

/** Seed 000's figure: mean wait / processing / total per server, for one phase (default: the last). */
export function MeanBars({ targets, engine, cells = [] }: { targets: readonly TargetResult[]; engine: RunEngine; cells?: readonly CellInfo[] }) {
  const phaseNames = useMemo(() => [...new Set(targets.flatMap((t) => t.phases.map((p) => p.name)))], [targets]);
  const [chosen, setChosen] = useState<string | null>(null);
  const phase = chosen ?? phaseNames[phaseNames.length - 1] ?? ALL;
  const bars: MeanBar[] = targets.map((t) => ({
    label: nameLines(t.label, t.name), // server, then its cell on a second line: the axis cuts neither
    title: cellTitle(t.label, cells, t.cellIndex), // the cell as key=value, on hover
    // only what the run's engine measured (a k6 run without Server-Timing has no wait to draw)
    wait: meanOf(t, phase, (p) => phaseFigures(engine, p).stats.wait?.mean),
    processing: meanOf(t, phase, (p) => phaseFigures(engine, p).stats.processing?.mean),
    total: meanOf(t, phase, (p) => p.total.mean),
  }));
  return (
    <Panel
      title="Mean time per server"
      actions={
        <label className="field-inline">
          phase
          <select value={phase} onChange={(e) => setChosen(e.target.value)}>
            {phaseNames.length > 1 && <option value={ALL}>{ALL}</option>}
            {phaseNames.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      }
    >
      <MeanBarChart bars={bars} testId="mean-bar-chart" />
    </Panel>
  );
}
