import { STREAM_COLUMNS, streamColumnGroups, streamRows } from '../../contract/report/stream-table';
import { STREAM_TERM, STREAM_WORDS } from '../../contract/stream-text';
import type { CellInfo, RunEngine, TargetResult } from '../../contract/results';
import { count, num } from '../ui/format';
import { Panel } from '../ui/widgets';

// What arrived on a run's streams (issue 41), per server run, phase and endpoint (stored per
// endpoint by migration 027): the rows and columns of contract/report/stream-table.ts, which the HTML
// report shows too. Nothing for a run that opened no stream.

const COUNTS = new Set(['streams.count', 'messages.count', 'messages.bytes']);

export function StreamTable({ targets, engine, cells = [] }: { targets: readonly TargetResult[]; engine: RunEngine; cells?: readonly CellInfo[] }) {
  const rows = streamRows(targets, engine, cells);
  if (rows.length === 0) return null;
  return (
    <Panel title={<>Streams per phase and endpoint <span className="muted" title={STREAM_TERM}>times in ms (hover a heading)</span></>} testId="stream-table">
      <div className="table-wrap">
        <table className="data compact stream-table">
          <thead>
            <tr>
              <th className="left" rowSpan={2}>server run</th>
              <th className="left" rowSpan={2}>phase</th>
              <th className="left" rowSpan={2}>endpoint</th>
              {streamColumnGroups().map((g) => (
                <th key={g.group} colSpan={g.span} className="group" title={g.group === 'count' ? STREAM_TERM : STREAM_WORDS[g.group]}>
                  {g.group === 'count' ? 'received' : g.group}
                </th>
              ))}
            </tr>
            <tr>
              {STREAM_COLUMNS.map((c) => (
                <th key={c.figure} title={c.figure}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.targetId}:${r.phaseIndex}:${r.endpoint ?? ''}`} data-testid="stream-table-row" data-server={r.server} data-phase={r.phase} data-endpoint={r.endpoint ?? ''} className={r.endpoint === null ? 'phase-row' : 'endpoint-row'}>
                <td className="left" title={r.serverTitle}>{r.server}</td>
                <td className="left">{r.phase}</td>
                <td className="left">{r.endpoint ?? <span className="muted">(phase)</span>}</td>
                {STREAM_COLUMNS.map((c, i) => (
                  <td key={c.figure} className="num" data-figure={c.figure} data-value={r.values[i] ?? ''}>
                    {COUNTS.has(c.figure) ? count(r.values[i]) : num(r.values[i])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
