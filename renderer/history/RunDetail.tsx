import { useMemo, useState } from 'react';
import { CapacitySection } from '../capacity/CapacitySection';
import { fromStored } from '../charts/run-data';
import { RunCharts } from '../results/RunCharts';
import { RunResults } from '../results/RunResults';
import { useEvidenceHighlight } from '../results/evidence-highlight';
import { WhatHappened } from '../results/WhatHappened';
import { useStoredRun } from '../results/useRunSummary';
import { Empty, ErrorBox } from '../ui/widgets';
import { RunAnnotation, type Annotation } from './RunAnnotation';
import { BaselinePin, usePinnedBaselines } from './BaselinePin';

/** A stored run, shown as the Run view shows a run that just ended. */
export interface RunDetailProps {
  runId: number;
  back: () => void;
  compareWith: (runId: number) => void;
  /** opens the Trends view of the run's scenario */
  trend: (scenarioName: string) => void;
  /** opens the scenario this run was started from in the editor */
  openScenario: (runId: number) => void;
  /** starts the same scenario (the same version, quick and overrides) again */
  runAgain: (runId: number) => void;
}

export function RunDetail({ runId, back, compareWith, openScenario, runAgain, trend }: RunDetailProps) {
  const { run, error } = useStoredRun(runId, true);
  const highlight = useEvidenceHighlight(runId);
  const series = useMemo(() => (run === null ? null : fromStored(run.summary, run.windows, run.samples)), [run]);
  // what was saved on this page; until then what the run was loaded with
  const [saved, setSaved] = useState<Annotation | null>(null);
  const annotation = saved ?? { name: run?.summary.name ?? null, note: run?.summary.note ?? null };
  // the results header shows the run's own name, when it has one, in place of the scenario title
  const baselines = usePinnedBaselines();
  const [pinError, setPinError] = useState<string | null>(null);
  const shown = useMemo(() => (run === null ? null : { ...run.summary, title: annotation.name ?? run.summary.title }), [run, annotation.name]);
  return (
    <div className="view detail-view" data-testid="run-detail">
      <div className="view-head">
        <button type="button" className="btn" onClick={back}>
          ← History
        </button>
        <span className="spacer" />
        {run !== null && <BaselinePin run={run.summary} baselines={baselines} look="page" onError={setPinError} />}
        <button type="button" className="btn" onClick={() => openScenario(runId)} data-testid="open-run-scenario">
          Open its scenario
        </button>
        <button type="button" className="btn btn-primary" onClick={() => runAgain(runId)} data-testid="run-again">
          Run again
        </button>
        {run !== null && (
          <button type="button" className="btn" onClick={() => trend(run.summary.scenarioName)} data-testid="open-trend" title="this scenario's figures over its last runs">
            Trend of this scenario
          </button>
        )}
        <button type="button" className="btn" onClick={() => compareWith(runId)}>
          Compare with…
        </button>
      </div>
      <ErrorBox message={error ?? pinError ?? baselines.error} onDismiss={pinError !== null ? () => setPinError(null) : undefined} />
      {run === null && error === null && <Empty>Loading run #{runId}…</Empty>}
      {run !== null && series !== null && shown !== null && (
        <>
          <RunAnnotation runId={runId} title={run.summary.title} annotation={annotation} saved={setSaved} />
          <RunResults summary={shown} showHeader whatHappened={<WhatHappened runId={runId} highlight={highlight} />} />
          <CapacitySection summary={run.summary} windows={run.windows} samples={run.samples} />
          <div className="over-time" ref={highlight.charts}>
            <h2 className="section-title">Over time</h2>
            <RunCharts series={series} version={0} live={false} engine={run.summary.engine} summary={run.summary} storedWindows={run.windows} area={highlight.area} />
          </div>
        </>
      )}
    </div>
  );
}
