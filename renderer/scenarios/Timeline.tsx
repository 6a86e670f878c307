import { STREAM_REQUEST_WORDS } from '../../contract/stream-names';
import type { PlannedPhase, TimelinePlan } from '../../contract/timeline';
import { count } from '../ui/format';
import { timelineLanes } from './timeline-lanes';
// the Run view draws it too, so its styles come with it
import './scenarios.css';

// The phases of each server run on a time axis, before anything runs: where each starts (its `at`,
// or after the previous one), how long it lasts, how many requests it should send, and what drives
// it. One block per cell of the matrix, as it would run (the quick profile applied when it is on).
// A ramp is drawn as its slope (the load at each corner), not as a flat block.

/** An open-ended phase (it lasts until its requests are done) is drawn this wide on the axis. */
const OPEN_SHARE = 0.12;

function axisEnd(phases: readonly PlannedPhase[]): number {
  const known = Math.max(0, ...phases.map((p) => p.startMs + (p.durationMs ?? 0)));
  const open = phases.filter((p) => p.durationMs === null).length;
  return known > 0 ? known / Math.max(0.3, 1 - OPEN_SHARE * open) : 1000;
}

/** One lane's height in px (the track's CSS height for one lane), and a block's margin inside it. */
const LANE_PX = 54;
const LANE_GAP_PX = 3;

const sec = (ms: number) => `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;

/** The ramp's area in a 100 × 100 box: x is time across the phase, y the load (top = its highest). */
function RampShape({ ramp, durationMs }: { ramp: NonNullable<PlannedPhase['ramp']>; durationMs: number }) {
  const top = Math.max(1, ...ramp.points.map((p) => p.value));
  const corners = ramp.points.map((p) => `${((p.atMs / Math.max(1, durationMs)) * 100).toFixed(2)},${(100 - (p.value / top) * 100).toFixed(2)}`);
  return (
    <svg className="tl-ramp" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden data-testid="timeline-ramp" data-values={ramp.points.map((p) => p.value).join(' ')}>
      <polygon points={`0,100 ${corners.join(' ')} 100,100`} />
    </svg>
  );
}

function PhaseBar({ p, end, lane }: { p: PlannedPhase; end: number; lane: number }) {
  const width = p.durationMs === null ? OPEN_SHARE * 100 : (p.durationMs / end) * 100;
  const title = `${p.name}: ${p.load}; starts at ${sec(p.startMs)}${p.durationMs === null ? ', lasts until its requests are done' : `, lasts ${sec(p.durationMs)}`}${p.expectedRequests === null ? '' : `; about ${count(p.expectedRequests)} requests`}`;
  const ramp = p.ramp !== undefined && p.durationMs !== null ? p.ramp : null;
  // a stream template's request is a stream held open, not a request and its answer: say which
  const streams = (p.streams ?? []).map((s) => STREAM_REQUEST_WORDS[s]).join(', ');
  const streamsTitle = streams === '' ? '' : `; its requests include ${streams}, each held open until it ends`;
  const fullTitle = title + streamsTitle;
  return (
    <div
      className={`tl-phase tl-${p.executor} ${p.durationMs === null ? 'tl-open' : ''} ${ramp ? 'tl-ramped' : ''}`}
      style={{ left: `${(p.startMs / end) * 100}%`, width: `${Math.max(width, 2)}%`, top: lane * LANE_PX + LANE_GAP_PX, height: LANE_PX - 2 * LANE_GAP_PX - 2, bottom: 'auto' }}
      title={fullTitle}
      data-testid="timeline-phase"
      data-start={p.startMs}
      data-lane={lane}
      data-requests={p.expectedRequests ?? ''}
      data-streams={p.streams?.join(' ')}
    >
      {ramp && p.durationMs !== null && <RampShape ramp={ramp} durationMs={p.durationMs} />}
      <span className="tl-name">{p.name}</span>
      <span className="tl-load">{p.load}</span>
      <span className="tl-count">
        {p.expectedRequests === null ? 'as fast as served' : `≈ ${count(p.expectedRequests)} req`}
        {streams !== '' && <span data-testid="timeline-streams"> · {streams}</span>}
      </span>
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
          {/* the short name; the full key=value path on hover */}
          {plan.cells.length > 1 && (
            <div className="tl-cell-label small" title={cell.label} data-testid="timeline-cell">
              {cell.name === '' ? cell.label : cell.name}
            </div>
          )}
          {cell.servers.map((server, s) => {
            const end = axisEnd(server.phases);
            const { lane, lanes } = timelineLanes(server.phases, OPEN_SHARE * end);
            return (
              <div key={s} className="tl-row" data-testid="timeline-server">
                <div className="tl-server small" title={server.label}>
                  {server.label}
                </div>
                <div className="tl-track" style={{ height: lanes * LANE_PX }} data-lanes={lanes}>
                  {server.phases.map((p, i) => (
                    <PhaseBar key={p.index} p={p} end={end} lane={lane[i] ?? 0} />
                  ))}
                </div>
                {/* its own column, beside the track: below it, the next row covered it */}
                <span className="tl-end small muted" data-testid="timeline-end" title="when this server run's timed phases end">
                  {sec(Math.max(...server.phases.map((p) => p.startMs + (p.durationMs ?? 0))))}
                </span>
              </div>
            );
          })}
          <FlowSteps phases={cell.servers[0]?.phases ?? []} />
        </div>
      ))}
    </div>
  );
}

/** A flow phase's steps in the order each user does them (every server of a cell runs the same phases). */
function FlowSteps({ phases }: { phases: readonly PlannedPhase[] }) {
  return (
    <>
      {phases
        .filter((p) => p.steps !== undefined)
        .map((p) => (
          <div key={p.index} className="tl-steps" data-testid="timeline-steps" data-phase={p.name} data-steps={JSON.stringify(p.steps)}>
            <span className="muted">{p.name}, each user in order:</span>
            {(p.steps ?? []).map((s, i) => (
              <span key={i} className="tl-step-wrap">
                {i > 0 && <span className="muted"> → </span>}
                <span className="tl-step" data-testid="timeline-step">
                  {s}
                </span>
              </span>
            ))}
          </div>
        ))}
    </>
  );
}
