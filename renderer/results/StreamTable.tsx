import { Fragment } from 'react';
import { STREAM_COLUMNS, streamColumnGroups, streamRows, type StreamRow } from '../../contract/report/stream-table';
import { STREAM_TERM, STREAM_WORDS } from '../../contract/stream-text';
import type { CellInfo, RunEngine, TargetResult } from '../../contract/results';
import { count, num } from '../ui/format';
import { Panel } from '../ui/widgets';
import './stream-table.css';

// What arrived on a run's streams (issue 41), per server run, phase and endpoint (stored per
// endpoint by migration 027): the rows and columns of contract/report/stream-table.ts, which the HTML
// report and the PNG show too. Laid out as the phase table is (a server run's name a row of its own,
// its phases under it, a split phase's stream endpoints under those), so 13 figures fit at 1024 px.
// Nothing for a run that opened no stream.

const COUNTS = new Set(['streams.count', 'messages.count', 'messages.bytes']);
const COLUMNS = 1 + STREAM_COLUMNS.length;

/** The rows of each server run in order, under its name. */
function byServer(rows: readonly StreamRow[]): { targetId: number; server: string; title: string; rows: StreamRow[] }[] {
  const out: { targetId: number; server: string; title: string; rows: StreamRow[] }[] = [];
  for (const r of rows) {
    const last = out[out.length - 1];
    if (last !== undefined && last.targetId === r.targetId) last.rows.push(r);
    else out.push({ targetId: r.targetId, server: r.server, title: r.serverTitle, rows: [r] });
  }
  return out;
}

export function StreamTable({ targets, engine, cells = [] }: { targets: readonly TargetResult[]; engine: RunEngine; cells?: readonly CellInfo[] }) {
  const rows = streamRows(targets, engine, cells);
  if (rows.length === 0) return null;
  return (
    <Panel title={<>Streams per phase and endpoint <span className="muted" title={STREAM_TERM}>times in ms (hover a heading)</span></>} testId="stream-table">
      <div className="table-wrap">
        <table className="data compact stream-table">
          <thead>
            <tr>
              <th className="left" rowSpan={2}>server run /<br />phase / endpoint</th>
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
            {byServer(rows).map((s) => (
              <Fragment key={s.targetId}>
                <tr className="name-row">
                  <td className="left server-name" colSpan={COLUMNS} title={s.title}>
                    {s.server}
                  </td>
                </tr>
                {s.rows.map((r) => (
                  <tr key={`${r.phaseIndex}:${r.endpoint ?? ''}`} data-testid="stream-table-row" data-server={r.server} data-phase={r.phase} data-endpoint={r.endpoint ?? ''} className={r.endpoint === null ? 'phase-row' : 'endpoint-row'}>
                    {r.endpoint === null ? (
                      <td className="left phase-name">{r.phase}</td>
                    ) : (
                      <td className="left endpoint-name" title={`endpoint ${r.endpoint} of ${r.phase}`}>
                        {r.endpoint}
                      </td>
                    )}
                    {STREAM_COLUMNS.map((c, i) => (
                      <td key={c.figure} className="num" data-figure={c.figure} data-value={r.values[i] ?? ''}>
                        {COUNTS.has(c.figure) ? count(r.values[i]) : num(r.values[i])}
                      </td>
                    ))}
                  </tr>
                ))}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
