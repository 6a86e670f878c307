import { useState } from 'react';
import type { RunListItem } from '../../contract/results';
import { count, formatDate, formatDuration, num } from '../ui/format';
import { ThresholdTallyBadge } from '../thresholds/ThresholdBadges';
import { Badge } from '../ui/widgets';

export interface RunTableProps {
  runs: readonly RunListItem[];
  selected: readonly number[];
  toggle: (id: number) => void;
  open: (id: number) => void;
  remove: (id: number) => void;
  runAgain: (id: number) => void;
}

/** The listed runs of a group of repeated runs, in their order. */
function groupMembers(runs: readonly RunListItem[], groupId: number): number[] {
  return runs
    .filter((x) => x.group?.id === groupId)
    .sort((a, b) => a.group!.index - b.group!.index)
    .map((x) => x.id);
}

/** The run list; deleting asks for a confirmation in the row itself. */
export function RunTable({ runs, selected, toggle, open, remove, runAgain }: RunTableProps) {
  const [confirming, setConfirming] = useState<number | null>(null);
  return (
    <div className="table-wrap panel">
      <table className="data runs" data-testid="run-table">
        <thead>
          <tr>
            <th className="check" aria-label="select" />
            <th className="left">#</th>
            <th className="left">scenario</th>
            <th className="left">servers</th>
            <th className="left">started</th>
            <th className="left">status</th>
            <th>duration</th>
            <th>requests</th>
            <th>errors</th>
            <th className="nowrap-lines">
              mean total
              <br />
              (ms)
            </th>
            <th aria-label="actions" />
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id} className={selected.includes(r.id) ? 'selected' : ''} data-testid="run-row" data-run-id={r.id} data-status={r.status}>
              <td className="check">
                <input type="checkbox" checked={selected.includes(r.id)} onChange={() => toggle(r.id)} aria-label={`select run ${r.id}`} />
              </td>
              <td className="left muted">{r.id}</td>
              <td className="left title-cell">
                <button type="button" className="btn-link strong" onClick={() => open(r.id)}>
                  {r.title}
                </button>
                <div className="muted small">
                  {r.scenarioName}
                  {r.quick ? ' · quick' : ''}
                  {r.engine === 'k6' && <span className="engine-k6" title="load sent by k6: times from send time, no intended time" data-testid="engine-k6"> · k6</span>}
                  {r.group !== null && (
                    <>
                      {' · '}
                      <a href={`#/compare/${groupMembers(runs, r.group.id).join(',')}`} data-testid="run-group" title="compare the runs of this group: each figure's mean with its interval across them">
                        group {r.group.id} ({r.group.index + 1} of {r.group.size})
                      </a>
                    </>
                  )}
                </div>
              </td>
              <td className="left small">{r.servers.join(', ')}</td>
              <td className="left nowrap">
                {formatDate(r.createdAt).split(' ')[0]}
                <div className="muted small">{formatDate(r.createdAt).split(' ')[1]}</div>
              </td>
              <td className="left">
                <Badge status={r.status} /> <ThresholdTallyBadge tally={r.thresholds} />
              </td>
              <td className="num">{formatDuration(r.durationMs)}</td>
              <td className="num">{count(r.requests)}</td>
              <td className={`num ${r.errors > 0 ? 'bad' : ''}`}>{count(r.errors)}</td>
              <td className="num">{num(r.meanTotalMs)}</td>
              <td className="nowrap">
                <div className="row-actions">
                {confirming === r.id ? (
                  <>
                    <span className="small">delete #{r.id}?</span>
                    <button type="button" className="btn btn-small btn-danger" onClick={() => { setConfirming(null); remove(r.id); }} data-testid="confirm-delete">
                      Delete
                    </button>
                    <button type="button" className="btn btn-small" onClick={() => setConfirming(null)}>
                      Keep
                    </button>
                  </>
                ) : (
                  <>
                    <button type="button" className="btn btn-small" onClick={() => open(r.id)} data-testid="open-run">
                      Open
                    </button>
                    <button type="button" className="btn btn-small" disabled={r.status === 'running'} onClick={() => runAgain(r.id)} title="the same scenario, version, quick and overrides">
                      Run again
                    </button>
                    <button type="button" className="btn btn-small btn-ghost" disabled={r.status === 'running'} onClick={() => setConfirming(r.id)} aria-label={`delete run ${r.id}`}>
                      Delete
                    </button>
                  </>
                )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
