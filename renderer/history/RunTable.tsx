import { useState, type ReactNode } from 'react';
import type { RunListItem } from '../../contract/results';
import { count, formatDate, formatDuration, num } from '../ui/format';
import { RunStatusBadge, ThresholdTallyBadge } from '../thresholds/ThresholdBadges';
import { RegressionTallyBadge } from '../thresholds/RegressionVerdict';
import { verdictOf, type RunSort, type SortKey } from './run-sort';
import { RenameRow } from './RenameRow';

export interface RunTableProps {
  runs: readonly RunListItem[];
  selected: readonly number[];
  toggle: (id: number) => void;
  open: (id: number) => void;
  remove: (id: number) => void;
  runAgain: (id: number) => void;
  sort: RunSort;
  sortBy: (key: SortKey) => void;
  /** a run was renamed in its row */
  renamed: () => void;
  /** the baseline pin of a run's row (issue 27) */
  pinFor?: (run: RunListItem) => ReactNode;
}

/** The listed runs of a group of repeated runs, in their order. */
function groupMembers(runs: readonly RunListItem[], groupId: number): number[] {
  return runs
    .filter((x) => x.group?.id === groupId)
    .sort((a, b) => a.group!.index - b.group!.index)
    .map((x) => x.id);
}

/** A column header that sorts the list by its column; aria-sort says which way it is sorted now. */
function SortHead({ k, sort, sortBy, className, children }: { k: SortKey; sort: RunSort; sortBy: (key: SortKey) => void; className?: string; children: ReactNode }) {
  const on = sort.key === k;
  return (
    <th className={`sortable ${className ?? ''}`} aria-sort={on ? sort.dir : 'none'} data-testid={`sort-${k}`}>
      <button type="button" className={`sort-head ${on ? 'on' : ''}`} onClick={() => sortBy(k)} title={`sort by ${k}`}>
        {children}
        <span className="sort-arrow" aria-hidden>
          {on ? (sort.dir === 'ascending' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

/** The run list; deleting asks for a confirmation in the row itself. */
export function RunTable({ runs, selected, toggle, open, remove, runAgain, sort, sortBy, renamed, pinFor }: RunTableProps) {
  const [confirming, setConfirming] = useState<number | null>(null);
  const [renaming, setRenaming] = useState<number | null>(null);
  const head = { sort, sortBy };
  return (
    <div className="table-wrap panel">
      <table className="data runs" data-testid="run-table">
        <thead>
          <tr>
            <th className="check" aria-label="select" />
            <SortHead k="scenario" className="left" {...head}>scenario</SortHead>
            <SortHead k="date" className="left" {...head}>started</SortHead>
            <SortHead k="status" className="left" {...head}>status</SortHead>
            <SortHead k="duration" {...head}>duration</SortHead>
            <SortHead k="requests" {...head}>requests</SortHead>
            <SortHead k="mean" {...head}>
              <abbr className="plain-abbr" title="mean total time of the run's requests, in ms">mean (ms)</abbr>
            </SortHead>
            <th aria-label="actions" />
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr
              key={r.id}
              className={selected.includes(r.id) ? 'selected' : ''}
              data-testid="run-row"
              data-run-id={r.id}
              data-status={r.status}
              data-verdict={verdictOf(r)}
              data-created={r.createdAt}
              data-scenario={r.scenarioName}
              data-duration={r.durationMs ?? ''}
              data-requests={r.requests}
              data-mean={r.meanTotalMs ?? ''}
            >
              <td className="check">
                <input type="checkbox" checked={selected.includes(r.id)} onChange={() => toggle(r.id)} aria-label={`select run ${r.id}`} />
              </td>
              <td className="left title-cell">
                {renaming === r.id ? (
                  <RenameRow runId={r.id} name={r.name ?? null} done={() => setRenaming(null)} renamed={renamed} />
                ) : (
                  <span className="run-name-line">
                    <button type="button" className="btn-link strong" onClick={() => open(r.id)} title={`open run #${r.id}`} data-testid="run-title">
                      {r.name ?? r.title}
                    </button>{' '}
                    <button type="button" className="btn-link small rename-link" onClick={() => setRenaming(r.id)} aria-label={`rename run ${r.id}`} title="rename this run" data-testid="rename-row">
                      ✎
                    </button>
                    {pinFor?.(r)}
                  </span>
                )}
                <div className="muted small">
                  #{r.id}
                  {r.name != null ? ` · ${r.title}` : ''}
                  {r.scenarioName !== r.title ? ` · ${r.scenarioName}` : ''}
                  {r.note != null && <span title={r.note} data-testid="run-has-note"> · note</span>}
                  {` · ${r.servers.join(', ')}`}
                  {r.quick ? ' · quick' : ''}
                  {r.damaged !== undefined && <span className="bad" title={r.damaged} data-testid="run-damaged"> · damaged</span>}
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
              <td className="left nowrap date-cell">
                {formatDate(r.createdAt).split(' ')[0]}
                <div className="muted small">{formatDate(r.createdAt).split(' ')[1]}</div>
              </td>
              <td className="left status-cell">
                <RunStatusBadge status={r.status} tally={r.thresholds} regression={r.regression} />
                <div className="small">
                  <ThresholdTallyBadge tally={r.thresholds} compact />
                </div>
                {r.regression != null && (
                  <div className="small">
                    <RegressionTallyBadge tally={r.regression} compact />
                  </div>
                )}
              </td>
              <td className="num">{formatDuration(r.durationMs)}</td>
              <td className="num" data-testid="run-requests">
                {count(r.requests)}
                {r.errors > 0 && <div className="bad small">{count(r.errors)} errors</div>}
              </td>
              <td className="num" data-testid="run-mean">{num(r.meanTotalMs)}</td>
              <td className="actions-cell">
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
                      {/* a narrow window drops it: the run's title above opens it too */}
                      <button type="button" className="btn btn-small wide-only" onClick={() => open(r.id)} data-testid="open-run">
                        Open
                      </button>
                      <button type="button" className="btn btn-small" disabled={r.status === 'running'} onClick={() => runAgain(r.id)} title="the same scenario, version, quick and overrides">
                        Run again
                      </button>
                      <button type="button" className="btn btn-small btn-ghost" disabled={r.status === 'running'} onClick={() => setConfirming(r.id)} aria-label={`delete run ${r.id}`} title={`delete run #${r.id}`}>
                        {/* a narrow window shows the mark alone, so the actions keep one line */}
                        <span className="wide-only">Delete</span>
                        <span className="narrow-only" aria-hidden>
                          ✕
                        </span>
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
