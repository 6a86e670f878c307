import type { ReactNode } from 'react';
import { errorTotal } from '../../contract/figures';
import type { RunSummary } from '../../contract/results';
import { targetRequests } from '../../contract/stored-requests';
import { count, formatDate, formatDuration, formatMs } from '../ui/format';
import { RunStatusBadge, ThresholdList, ThresholdTallyBadge } from '../thresholds/ThresholdBadges';
import { RegressionList, RegressionTallyBadge } from '../thresholds/RegressionVerdict';
import { regressionTally } from '../../contract/run-verdict';
import { Stat } from '../ui/widgets';
import { ExportButtons } from './ExportButtons';
import { MeanBars } from './MeanBars';
import { PhaseTable } from './PhaseTable';
import { StreamTable } from './StreamTable';
import { ReportTables } from './ReportTables';
import { RequestScatter } from './RequestScatter';
import { SlowestTable } from './SlowestTable';
import { CheckTable } from './CheckTable';
import { InstancePanel } from './InstancePanel';
import './run-view.css';

function totals(summary: RunSummary) {
  let requests = 0;
  let errors = 0;
  let weighted = 0;
  // the mean is over the requests of ended phases, the only ones with figures
  let phased = 0;
  for (const t of summary.targets) {
    // as stored: an interrupted run's unfinished phase has rows and no figures
    requests += targetRequests(t);
    for (const p of t.phases) {
      phased += p.count;
      errors += errorTotal(p.errors);
      weighted += p.total.mean * p.count;
    }
  }
  return { requests, errors, meanTotal: phased === 0 ? null : weighted / phased };
}

function tallyOf(summary: RunSummary) {
  if (summary.thresholds.length === 0) return null;
  const failed = summary.thresholds.filter((x) => !x.passed).length;
  return { passed: summary.thresholds.length - failed, failed };
}

/** Requests measured in a run: a run with none has nothing to chart or export. */
export function requestsIn(summary: RunSummary): number {
  return totals(summary).requests;
}

/** A finished run: headline figures, export, what happened (the page's panel, `whatHappened`), the scenario's report, the per-server bars and tables. */
export function RunResults({ summary, showHeader, whatHappened }: { summary: RunSummary; showHeader: boolean; whatHappened?: ReactNode }) {
  const t = totals(summary);
  return (
    <div className="results" data-testid="run-results" data-run-id={summary.id} data-status={summary.status} data-quick={summary.quick ? 'true' : 'false'}>
      <div className="results-head">
        {showHeader && (
          <div className="results-title">
            <RunStatusBadge status={summary.status} tally={tallyOf(summary)} regression={regressionTally(summary.regression ?? null)} />
            <ThresholdTallyBadge tally={tallyOf(summary)} />
            <RegressionTallyBadge tally={regressionTally(summary.regression ?? null)} />
            <h2>{summary.title}</h2>
            <span className="muted">
              run #{summary.id} · {summary.scenarioName}
              {summary.quick ? ' · quick' : ''} · {formatDate(summary.createdAt)}
            </span>
          </div>
        )}
        {t.requests > 0 && (
          <div className="stats-row">
            <div className="stats">
              <Stat label="duration" value={formatDuration(summary.durationMs)} />
              <Stat label="requests" value={count(t.requests)} />
              <Stat label="errors" value={count(t.errors)} />
              <Stat label="mean total time" value={formatMs(t.meanTotal)} />
              <Stat label="server runs" value={summary.targets.length} />
            </div>
            <span className="spacer" />
            <ExportButtons runId={summary.id} />
          </div>
        )}
      </div>
      {summary.reason !== null && <div className="notice">{summary.reason}</div>}
      {summary.engine === 'k6' && <div className="notice" data-testid="engine-note">Load sent by k6. {summary.engineNote}</div>}
      {/* a native run's note: a phase that ended early (its unique data ran out) */}
      {summary.engine !== 'k6' && summary.engineNote !== null && <div className="notice" data-testid="run-note">{summary.engineNote}</div>}
      {whatHappened}
      {t.requests === 0 ? (
        // nothing to chart, tabulate or export: one line instead of empty charts and files
        <div className="muted no-requests" data-testid="no-requests">
          No requests were measured ({formatDuration(summary.durationMs)}, {summary.targets.length} server {summary.targets.length === 1 ? 'run' : 'runs'}): nothing to chart or export.
        </div>
      ) : (
        <>
          <ThresholdList run={summary} />
          <CheckTable runs={[summary]} />
          <RegressionList verdict={summary.regression} />
          <ReportTables tables={summary.report} />
          <div className="chart-grid">
            <MeanBars targets={summary.targets} engine={summary.engine} cells={summary.cells} />
            <RequestScatter runId={summary.id} targets={summary.targets} engine={summary.engine} cells={summary.cells} />
          </div>
          <PhaseTable targets={summary.targets} engine={summary.engine} cells={summary.cells} scenario={summary.scenario} />
          <StreamTable targets={summary.targets} engine={summary.engine} cells={summary.cells} />
          <InstancePanel run={summary} />
          <SlowestTable runId={summary.id} />
        </>
      )}
      {summary.machine !== null && (
        <div className="machine muted small">
          measured on {summary.machine.hostname}: {summary.machine.cpus} × {summary.machine.cpuModel}, {Math.round(summary.machine.memoryBytes / 1_073_741_824)} GB,
          Node {summary.machine.node}, Loadscope {summary.machine.loadscope}
        </div>
      )}
    </div>
  );
}
