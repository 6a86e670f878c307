import type { RunStatus } from '../../contract/results';
import { count, formatDuration } from '../ui/format';
import type { ThresholdTally } from '../../contract/thresholds';
import { RunStatusBadge } from '../thresholds/ThresholdBadges';
import type { LiveRunStore } from './live-run-store';
import '../results/run-view.css';

/** Progress bar with elapsed and remaining time, the requests so far, and each server run's state. */
export function RunProgress({ store, showReason = true, tally = null }: { store: LiveRunStore; /** false where the results print it */ showReason?: boolean; /** the finished run's thresholds: a failed one turns "completed" into a warning */ tally?: ThresholdTally }) {
  const p = store.progress;
  const status: RunStatus | 'starting' = store.finished?.status ?? (store.runId === null ? 'starting' : 'running');
  const done = store.finished !== null;
  // Every figure as the engine computed it (engine/run/run-progress.ts): a cancelled or failed run
  // keeps the fraction it reached; only a completed one shows 100 %.
  const fraction = Math.min(1, Math.max(0, p?.fraction ?? 0));
  const requests = p?.requests ?? 0;
  const left = p?.remainingMs ?? null;
  // a run that stopped short says so, and where: the bar's rest is drawn as not run, not as a full bar
  const stopped = status === 'cancelled' || status === 'failed' || status === 'interrupted';
  const percent = Math.round(fraction * 100);
  const remaining = done ? '–' : left === null ? (p === null ? '…' : 'estimating…') : left <= 0 ? 'finishing…' : `~${formatDuration(left)}`;
  return (
    <div className="progress-block" data-testid="run-progress" data-status={status}>
      <div className="progress-line">
        <RunStatusBadge status={status} tally={tally} />
        <strong className="run-title">{store.title !== '' ? store.title : 'Starting…'}</strong>
        {store.runId !== null && <span className="muted">run #{store.runId}</span>}
        <span className="spacer" />
        <span className="progress-figure">
          elapsed <b>{formatDuration(p?.elapsedMs ?? 0)}</b>
        </span>
        <span className="progress-figure" title="load time left in the plan; starting each server comes on top">
          remaining <b>{remaining}</b>
        </span>
        <span className="progress-figure">
          requests <b>{count(requests)}</b>
        </span>
        <span className="progress-figure" data-testid="progress-figure">
          {stopped ? (
            <>
              {status} at <b>{percent}</b> % of the plan
            </>
          ) : (
            <>
              <b>{percent}</b> %
            </>
          )}
        </span>
      </div>
      <div
        className={`progress-bar ${stopped ? 'stopped' : ''}`}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={stopped ? `${status} at ${percent} % of the plan` : `${percent} %`}
        title={stopped ? `${status}: ${percent} % of the planned load ran; the hatched rest did not` : undefined}
      >
        <div className={`progress-fill ${status}`} style={{ width: `${fraction * 100}%` }} />
        {stopped && <div className="progress-rest" aria-hidden />}
      </div>
      {store.series.targets.length > 0 && (
        <div className="target-strip">
          <span className="muted">server runs{store.totalTargets > 0 ? ` (${store.series.targets.length} of ${store.totalTargets})` : ''}:</span>
          {store.series.targets.map((t) => (
            <span key={t.targetId} className={`target-chip t-${t.state}`} title={`${t.title ?? t.label}: ${t.reason ?? t.state}`} data-name={t.label}>
              {t.label} <small>{t.state}</small>
            </span>
          ))}
        </div>
      )}
      {showReason && store.finished?.reason != null && <div className="muted small">reason: {store.finished.reason}</div>}
    </div>
  );
}
