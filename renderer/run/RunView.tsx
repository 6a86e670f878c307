import { useMemo, useState } from 'react';
import type { StartRequest } from '../../contract/api';
import { parseScenarioText } from '../scenarios/scenario-info';
import { Timeline } from '../scenarios/Timeline';
import { useScenarioList, useScenarioText } from '../scenarios/useScenarioList';
import { useValidation } from '../scenarios/useValidation';
import { errorMessage } from '../ui/format';
import { Empty, ErrorBox, Panel } from '../ui/widgets';
import type { LiveRun } from './useLiveRun';
import { RunCharts } from '../results/RunCharts';
import { RunProgress } from './RunProgress';
import { requestsIn, RunResults } from '../results/RunResults';
import { ScenarioOutline } from './ScenarioOutline';
import { FIRST_TRY, ScenarioPicker, type ScenarioSource } from './ScenarioPicker';
import { CapacitySection } from '../capacity/CapacitySection';
import { useStoredRun } from '../results/useRunSummary';
import { useEvidenceHighlight } from '../results/evidence-highlight';
import { WhatHappened } from '../results/WhatHappened';
import { outlineSource, type OutlineSource } from './outline-source';
import type { RunEngine } from '../../contract/results';
import { thresholdTally } from '../../contract/thresholds';
import { K6Toggle } from '../k6/K6Toggle';
import { quickSetting, type QuickProfileWord } from '../scenarios/quick-setting';

/** What the Run view is set to start; kept by the App so it survives switching views and menu actions can use it. */
export interface RunSetup {
  source: ScenarioSource | null;
  setSource: (s: ScenarioSource) => void;
  /** the source the last run was started from (null before any) */
  ranSource: ScenarioSource | null;
  quick: boolean;
  setQuick: (q: boolean) => void;
  /** the keyboard asked for the file dialog (Ctrl+O): the picker opens it once, then says so */
  askOpenFile: boolean;
  openFileAsked: () => void;
}

export interface RunViewProps {
  live: LiveRun;
  setup: RunSetup;
  start: (request: StartRequest) => void;
  cancel: () => Promise<void>;
  openInEditor: (text: string) => void;
}

export function startRequest(source: ScenarioSource, quick: boolean, engine: RunEngine = 'native', instances = 1): StartRequest {
  return { scenario: source.kind === 'builtin' ? { name: source.name } : { text: source.text, origin: source.fileName }, quick, ...(engine === 'k6' ? { engine, ...(instances > 1 && { instances }) } : {}) };
}

/** Pick a scenario, start it, watch it live, and read its results when it ends. */
export function RunView({ live, setup, start, cancel, openInEditor }: RunViewProps) {
  const { store, chartVersion, chartParts } = live;
  const scenarios = useScenarioList();
  const { quick, setQuick } = setup;
  const [cancelError, setCancelError] = useState<string | null>(null);
  const [engine, setEngine] = useState<RunEngine>('native');
  const [instances, setInstances] = useState(1);
  const first = scenarios.list?.find((s) => s.name === FIRST_TRY) ?? scenarios.list?.[0];
  const source: ScenarioSource | null = setup.source ?? (first !== undefined ? { kind: 'builtin', name: first.name } : null);
  const builtin = useScenarioText(source?.kind === 'builtin' ? source.name : null);
  const text = source?.kind === 'file' ? source.text : builtin.text;
  const parsed = useMemo(() => (text === null ? null : parseScenarioText(text)), [text]);
  const preview = useValidation(text ?? '', quick);
  // the engine's word on the quick profile: the answer for this text, else the listing's for this name
  const listed = source?.kind === 'builtin' ? scenarios.list?.find((s) => s.name === source.name) : undefined;
  const quickProfile: QuickProfileWord = preview.state === 'done' && preview.result.ok ? preview.result.quickProfile : listed?.quickProfile;
  const runsQuick = quickSetting(quick, quickProfile).on;
  const running = store.phase === 'starting' || store.phase === 'running';
  // windows too: a capacity search's section judges its stored steps with them
  const finishedRun = useStoredRun(store.phase === 'finished' ? store.runId : null, true);
  const highlight = useEvidenceHighlight(finishedRun.run?.summary.id ?? null);

  const onStart = () => {
    if (source === null) return;
    setCancelError(null);
    // the setting as the person left it: the engine runs a scenario without a profile full (and the
    // setting stays for the next scenario that has one)
    start(startRequest(source, quick, engine, instances));
  };
  const onCancel = () => {
    cancel().catch((err: unknown) => setCancelError(errorMessage(err)));
  };
  const quickOverrides = parsed?.ok === true && runsQuick ? Object.entries(parsed.scenario.quick ?? {}) : [];
  const outline = parsed?.ok === true ? outlineSource(parsed.scenario, preview) : null;
  // before a run, or once another scenario is picked after one: what Start would run, previewed
  const previewPick = !running && (store.phase !== 'finished' || store.scenario === null || setup.source !== setup.ranSource);

  return (
    <div className="view run-view" data-testid="run-view" data-phase={store.phase}>
      <Panel className="setup">
        <ScenarioPicker
          list={scenarios.list}
          source={source}
          onSource={setup.setSource}
          quick={quick}
          onQuick={setQuick}
          quickProfile={quickProfile}
          canStart={source !== null && (parsed === null || parsed.ok)}
          running={running}
          onStart={onStart}
          onCancel={onCancel}
          onEdit={text === null ? null : () => openInEditor(text)}
          askOpenFile={setup.askOpenFile}
          openFileAsked={setup.openFileAsked}
        />
        <K6Toggle engine={engine} onEngine={setEngine} instances={instances} onInstances={setInstances} disabled={running} />
        <ErrorBox message={scenarios.error ?? builtin.error} />
        {parsed?.ok === false && <ErrorBox message={`This scenario does not validate: ${parsed.message}`} />}
        {parsed?.ok === true && previewPick && (
          <>
            {outline !== null && <PlannedOutline outline={outline} quick={runsQuick} compact={store.phase !== 'idle'} />}
            {preview.state === 'done' && preview.result.ok && <Timeline plan={preview.result.plan} />}
            {quickOverrides.length > 0 && (
              <div className="muted small quick-note">
                quick profile (sizes above as the engine applies it): {quickOverrides.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(' · ')}
              </div>
            )}
          </>
        )}
      </Panel>
      <ErrorBox message={store.error} />
      <ErrorBox message={cancelError} onDismiss={() => setCancelError(null)} />
      {store.phase === 'idle' && store.error === null && (
        <Empty>New here? {FIRST_TRY} is picked: a 5-second first try (two servers, 2.5 s each). Press Start run and watch the live charts; then write your own under Scenarios.</Empty>
      )}
      {store.phase !== 'idle' && <RunProgress store={store} showReason={finishedRun.run === null} tally={finishedRun.run === null ? null : thresholdTally(finishedRun.run.summary.thresholds)} />}
      {store.phase !== 'idle' && store.scenario !== null && (
        <Panel title={<>{running ? 'Running' : 'Ran'}: {store.scenario.title ?? store.scenario.name} <span className="muted">as the engine runs it{store.scenario.name !== (parsed?.ok === true ? parsed.scenario.name : store.scenario.name) ? ' (not the scenario picked above)' : ''}</span></>} testId="running-outline">
          <ScenarioOutline scenario={store.scenario} compact />
        </Panel>
      )}
      <ErrorBox message={finishedRun.error} />
      {finishedRun.run !== null && <RunResults summary={finishedRun.run.summary} showHeader={false} whatHappened={<WhatHappened runId={finishedRun.run.summary.id} highlight={highlight} />} />}
      {finishedRun.run !== null && <CapacitySection summary={finishedRun.run.summary} windows={finishedRun.run.windows} samples={finishedRun.run.samples} />}
      {store.phase !== 'idle' && !(finishedRun.run !== null && requestsIn(finishedRun.run.summary) === 0) && (
        <div className="over-time" ref={highlight.charts}>
          {finishedRun.run !== null && <h2 className="section-title">Over time</h2>}
          <RunCharts series={store.series} version={chartVersion} parts={chartParts} live running={running} servers={store.totalTargets} engine={finishedRun.run?.summary.engine ?? engine} summary={finishedRun.run?.summary} scenario={store.scenario} cells={store.cells} area={finishedRun.run === null ? null : highlight.area} />
        </div>
      )}
    </div>
  );
}

/** The outline before a run, in the sizes the engine answered for the quick setting (never the text's own sizes while it is asked). */
function PlannedOutline({ outline, quick, compact }: { outline: OutlineSource; quick: boolean; compact: boolean }) {
  switch (outline.state) {
    case 'ready':
      return <ScenarioOutline scenario={outline.scenario} compact={compact} sizes={outline.sizes} cells={outline.cells} />;
    case 'pending':
      return (
        <div className="muted small" data-testid="scenario-outline" data-sizes="pending">
          working out the {quick ? 'quick' : 'full'} sizes the engine will run…
        </div>
      );
    case 'invalid':
      return <ErrorBox message={`The engine refuses this scenario${quick ? ' with its quick profile' : ''}: ${outline.message}`} />;
    case 'unresolved':
      return (
        <>
          <div className="muted small">Full sizes as written: the engine did not answer ({outline.message}){quick ? '; the quick profile will change them' : ''}.</div>
          <ScenarioOutline scenario={outline.scenario} compact={compact} sizes="full" />
        </>
      );
  }
}
