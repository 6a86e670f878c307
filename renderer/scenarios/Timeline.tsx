import type { PlannedPhase, TimelinePlan } from '../../contract/timeline';
import { count } from '../ui/format';

// The phases of each server run on a time axis, before anything runs: where each starts (its `at`,
// or after the previous one), how long it lasts, how many requests it should send, and what drives
// it. One block per cell of the matrix, as it would run (the quick profile applied when it is on).

/** An open-ended phase (it lasts until its requests are done) is drawn this wide on the axis. */
const OPEN_SHARE = 0.12;

function axisEnd(phases: readonly PlannedPhase[]): number {
  const known = Math.max(0, ...phases.map((p) => p.startMs + (p.durationMs ?? 0)));
  const open = phases.filter((p) => p.durationMs === null).length;
  return known > 0 ? known / Math.max(0.3, 1 - OPEN_SHARE * open) : 1000;
}

const sec = (ms: number) => `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;

function PhaseBar({ p, end }: { p: PlannedPhase; end: number }) {
  const width = p.durationMs === null ? OPEN_SHARE * 100 : (p.durationMs / end) * 100;
  const title = `${p.name}: ${p.load}; starts at ${sec(p.startMs)}${p.durationMs === null ? ', lasts until its requests are done' : `, lasts ${sec(p.durationMs)}`}${p.expectedRequests === null ? '' : `; about ${count(p.expectedRequests)} requests`}`;
  return (
    <div
      className={`tl-phase tl-${p.executor} ${p.durationMs === null ? 'tl-open' : ''}`}
      style={{ left: `${(p.startMs / end) * 100}%`, width: `${Math.max(width, 2)}%` }}
      title={title}
      data-testid="timeline-phase"
      data-start={p.startMs}
      data-requests={p.expectedRequests ?? ''}
    >
      <span className="tl-name">{p.name}</span>
      <span className="tl-load">{p.load}</span>
      <span className="tl-count">{p.expectedRequests === null ? 'as fast as served' : `≈ ${count(p.expectedRequests)} req`}</span>
    </div>
  );
}

export function Timeline({ plan }: { plan: TimelinePlan }) {
  return (
    <div className="timeline" data-testid="timeline" data-cells={plan.cells.length} data-quick={plan.quick ? 'true' : 'false'}>
      <div className="muted small">
        {plan.cells.length} cell{plan.cells.length === 1 ? '' : 's'}
        {plan.quick ? ' with the quick profile' : ''} · servers run one after another, each on its own clock
      </div>
      {plan.cells.map((cell) => (
        <div key={cell.index} className="tl-cell">
          {plan.cells.length > 1 && <div className="tl-cell-label small">{cell.label}</div>}
          {cell.servers.map((server, s) => {
            const end = axisEnd(server.phases);
            return (
              <div key={s} className="tl-row" data-testid="timeline-server">
                <div className="tl-server small" title={server.label}>
                  {server.label}
                </div>
                <div className="tl-track">
                  {server.phases.map((p) => (
                    <PhaseBar key={p.index} p={p} end={end} />
                  ))}
                  <span className="tl-end small muted">{sec(Math.max(...server.phases.map((p) => p.startMs + (p.durationMs ?? 0))))}</span>
                </div>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
