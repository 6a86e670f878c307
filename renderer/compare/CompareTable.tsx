import type { PhaseResult, RunSummary } from '../../contract/results';
import { count, num, ratio } from '../ui/format';
import { Panel } from '../ui/widgets';

interface Row {
  group: string;
  label: string;
  get: (p: PhaseResult) => number | null | undefined;
  /** true where a larger value is better (throughput), for colouring the ratios */
  higherIsBetter?: boolean;
  isCount?: boolean;
}

const STATS = ['mean', 'p50', 'p90', 'p99', 'max'] as const;
const ROWS: Row[] = [
  { group: '', label: 'requests', get: (p) => p.count, higherIsBetter: true, isCount: true },
  { group: '', label: 'throughput (req/s)', get: (p) => p.throughput, higherIsBetter: true },
  ...(['total', 'wait', 'processing'] as const).flatMap((m) =>
    STATS.map((s): Row => ({ group: `${m} (ms)`, label: s, get: (p) => p[m]?.[s] })),
  ),
];

function ratioClass(a: number | null | undefined, b: number | null | undefined, higherIsBetter: boolean): string {
  if (a === null || a === undefined || b === null || b === undefined || a === 0) return '';
  const r = b / a;
  if (r > 1.1) return higherIsBetter ? 'better' : 'worse';
  if (r < 0.9) return higherIsBetter ? 'worse' : 'better';
  return '';
}

export interface ServerKey {
  key: string;
  label: string;
}

/** Matches server runs across runs by matrix cell and server position. */
export const serverKey = (t: { cellIndex: number; serverIndex: number }): string => `${t.cellIndex}:${t.serverIndex}`;

/** One table per server and phase: each run's figures side by side, and every run against the first as B/A. */
export function CompareTable({ runs, servers }: { runs: readonly RunSummary[]; servers: readonly ServerKey[] }) {
  const base = runs[0];
  if (base === undefined) return null;
  const letter = (i: number) => String.fromCharCode(65 + i);
  const blocks = servers.flatMap((s) => {
    const phaseNames = new Map<number, string>();
    for (const r of runs) for (const t of r.targets) if (serverKey(t) === s.key) for (const p of t.phases) phaseNames.set(p.index, p.name);
    return [...phaseNames].sort((a, b) => a[0] - b[0]).map(([index, name]) => ({ server: s, index, name }));
  });
  return (
    <div className="compare-tables" data-testid="compare-table">
      {blocks.map((b) => {
        const phases = runs.map((r) => r.targets.find((t) => serverKey(t) === b.server.key)?.phases.find((p) => p.index === b.index));
        return (
          <Panel key={`${b.server.key}:${b.index}`} title={<>{b.server.label} <span className="muted">· phase {b.index + 1}: {b.name}</span></>}>
            <table className="data compact">
              <thead>
                <tr>
                  <th className="left" colSpan={2}>metric</th>
                  {runs.map((r, i) => (
                    <th key={r.id}>
                      {letter(i)}: #{r.id}
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
                {ROWS.map((row, ri) => {
                  const values = phases.map((p) => (p === undefined ? undefined : row.get(p)));
                  return (
                    <tr key={ri} className={row.label === 'mean' ? 'group-start' : ''}>
                      <td className="left muted">{row.label === 'mean' || row.group === '' ? row.group : ''}</td>
                      <td className="left">{row.label}</td>
                      {values.map((v, i) => (
                        <td key={i} className="num">
                          {row.isCount === true ? count(v) : num(v)}
                        </td>
                      ))}
                      {values.slice(1).map((v, i) => (
                        <td key={`r${i}`} className={`num ratio-col ${ratioClass(values[0], v, row.higherIsBetter === true)}`}>
                          {ratio(values[0], v)}
                        </td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </Panel>
        );
      })}
    </div>
  );
}
