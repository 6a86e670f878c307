import { useCallback, useState } from 'react';
import { startWithConsent } from './run/start-with-consent';
import type { StartRequest } from '../contract/api';
import type { RunScenarioSource } from '../contract/library';
import { CompareView } from './compare/CompareView';
import { HistoryView } from './history/HistoryView';
import { FIRST_TRY, type ScenarioSource } from './run/ScenarioPicker';
import { RunView, startRequest } from './run/RunView';
import { useMenuActions } from './run/useMenuActions';
import { downloadExport } from './ui/download';
import { useLiveRun } from './run/useLiveRun';
import { draftOf, isDirty, runDraft, type Draft } from './scenarios/draft';
import { ScenariosView } from './scenarios/ScenariosView';
import { TrendsView } from './trends/TrendsView';
import { useUnsavedGuard } from './scenarios/useUnsavedGuard';
import { useApi } from './ui/ApiContext';
import { errorMessage } from './ui/format';
import { ErrorBox } from './ui/widgets';
import { ShortcutHelp } from './ui/ShortcutHelp';
import { useShortcuts } from './ui/shortcuts';
import { useRoute, type Route } from './ui/useRoute';

const NAV: { view: Exclude<Route['view'], 'trends'>; label: string; hint: string }[] = [
  { view: 'run', label: 'Run', hint: 'start a scenario and watch it live' },
  { view: 'history', label: 'History', hint: 'every stored run' },
  { view: 'compare', label: 'Compare', hint: 'overlay two or more runs' },
  { view: 'scenarios', label: 'Scenarios', hint: 'built-ins and the editor' },
];

/** A stored run's scenario as the picker names it: by name while it is the current text, else its text. */
function pickerSourceOf(runId: number, s: RunScenarioSource): ScenarioSource {
  const o = s.origin;
  if (o.kind === 'builtin' || (o.kind === 'library' && o.latest)) return { kind: 'builtin', name: o.name };
  return { kind: 'file', fileName: o.kind === 'library' ? `${o.name} v${o.version} (run #${runId})` : `${o.name} (run #${runId})`, text: s.text };
}

export function App() {
  const api = useApi();
  const [route, goRaw] = useRoute();
  const [draft, setDraft] = useState<Draft | null>(null);
  useUnsavedGuard(isDirty(draft));
  // Leaving the Scenarios view with unsaved changes asks first (the draft itself is kept either way).
  const go = useCallback(
    (next: Route) => {
      if (route.view === 'scenarios' && next.view !== 'scenarios' && isDirty(draft) && !window.confirm('The scenario editor has unsaved changes. Leave anyway? (They stay in the editor until you open another scenario.)')) return;
      goRaw(next);
    },
    [goRaw, route.view, draft],
  );
  const live = useLiveRun(api);

  const [source, setSource] = useState<ScenarioSource | null>(null);
  // what the last run was started from: the Run view previews a newer pick instead of only that run
  const [ranSource, setRanSource] = useState<ScenarioSource | null>(null);
  const [quick, setQuick] = useState(true);
  const [menuError, setMenuError] = useState<string | null>(null);
  const running = live.store.phase === 'starting' || live.store.phase === 'running';

  const start = useCallback(
    (request: StartRequest) => {
      live.store.reset('starting');
      // The Run view shows what was started (an editor's draft stays in the editor, so no guard here).
      const from = request.scenario;
      // ... and with the quick setting it was started with (the editor has its own toggle)
      if (request.quick !== undefined) setQuick(request.quick);
      const shown = (s: ScenarioSource) => {
        setSource(s);
        setRanSource(s);
      };
      if ('name' in from) shown({ kind: 'builtin', name: from.name });
      else if ('text' in from) shown({ kind: 'file', fileName: from.origin ?? 'from the editor', text: from.text });
      else {
        // "Run again": the picker shows the run's own scenario (and quick setting), not the last choice
        api.invoke('runs:scenario', { runId: from.runId }).then((s) => {
          setQuick(s.quick);
          shown(pickerSourceOf(from.runId, s));
        }, (err: unknown) => setMenuError(errorMessage(err)));
      }
      goRaw({ view: 'run' });
      startWithConsent(api, request, (question) => window.confirm(question)).then(
        ({ runId }) => live.store.adopt(runId),
        (err: unknown) => live.store.fail(errorMessage(err)),
      );
    },
    [api, goRaw, live.store],
  );

  const cancel = useCallback(async () => {
    if (live.store.runId !== null) await api.invoke('runs:cancel', { runId: live.store.runId });
  }, [api, live.store]);

  const menu = {
    openScenario: (fileName: string, text: string) => {
      setSource({ kind: 'file', fileName, text });
      go({ view: 'run' });
    },
    start: () => {
      // nothing picked yet: the Run view's own first choice
      if (!running) start(startRequest(source ?? { kind: 'builtin', name: FIRST_TRY }, quick));
      else go({ view: 'run' });
    },
    cancel: () => void cancel().catch((err: unknown) => setMenuError(errorMessage(err))),
    exportRun: () => {
      // the run on screen: an opened stored run, else the one the Run view last finished
      const runId = route.view === 'history' && route.runId !== null ? route.runId : live.store.phase === 'finished' ? live.store.runId : null;
      if (runId === null) return setMenuError('Export: open a finished run first (Run view or History).');
      api.invoke('runs:export', { runId, format: 'csv' }).then(downloadExport, (err: unknown) => setMenuError(errorMessage(err)));
    },
  };
  useMenuActions(api, menu);
  // the same actions from the keyboard; in the desktop app its menu has the Ctrl keys (electron/menu.ts)
  const [help, setHelp] = useState(false);
  const [askOpenFile, setAskOpenFile] = useState(false);
  useShortcuts(
    {
      'run-start': menu.start,
      'run-cancel': menu.cancel,
      'open-scenario': () => {
        if (running) return;
        setAskOpenFile(true);
        go({ view: 'run' });
      },
      export: menu.exportRun,
      help: () => setHelp((h) => !h),
    },
    window.loadscope !== undefined,
  );

  const openInEditor = useCallback(
    (text: string) => {
      setDraft(draftOf(text, 'from the Run view', null, false));
      goRaw({ view: 'scenarios' });
    },
    [goRaw],
  );

  const openRunScenario = useCallback(
    (runId: number) => {
      api.invoke('runs:scenario', { runId }).then((s) => {
        setDraft(runDraft(runId, s));
        goRaw({ view: 'scenarios' });
      }, (err: unknown) => setMenuError(errorMessage(err)));
    },
    [api, goRaw],
  );

  return (
    <div className="app">
      <nav className="sidebar" aria-label="Views">
        <div className="brand">
          <span className="brand-mark" aria-hidden />
          <span>Loadscope</span>
        </div>
        {NAV.map((n) => (
          <button
            key={n.view}
            type="button"
            className={`nav-item ${route.view === n.view ? 'active' : ''}`}
            aria-current={route.view === n.view ? 'page' : undefined}
            title={n.hint}
            data-testid={`nav-${n.view}`}
            onClick={() => go(n.view === 'history' ? { view: 'history', runId: null } : n.view === 'compare' ? { view: 'compare', runIds: route.view === 'compare' ? route.runIds : [] } : { view: n.view })}
          >
            {n.label}
            {n.view === 'run' && running && <span className="live-dot" title="a run is in progress" />}
          </button>
        ))}
        <div className="sidebar-foot">
          load, wait and processing time, per architecture
          <br />
          <button type="button" className="shortcut-hint" onClick={() => setHelp(true)} data-testid="shortcuts-button">
            keyboard shortcuts: ?
          </button>
        </div>
      </nav>
      <main className="content">
        {menuError !== null && (
          <div className="view-banner">
            <ErrorBox message={menuError} onDismiss={() => setMenuError(null)} />
          </div>
        )}
        {route.view === 'run' && <RunView live={live} setup={{ source, setSource, ranSource, quick, setQuick, askOpenFile, openFileAsked: () => setAskOpenFile(false) }} start={start} cancel={cancel} openInEditor={openInEditor} />}
        {route.view === 'history' && (
          <HistoryView
            runId={route.runId}
            open={(runId) => go({ view: 'history', runId })}
            openScenario={openRunScenario}
            runAgain={(runId) => start({ scenario: { runId } })}
            compare={(runIds) => go({ view: 'compare', runIds })}
            trend={(scenario) => go({ view: 'trends', scenario })}
          />
        )}
        {route.view === 'trends' && <TrendsView scenarioName={route.scenario} back={() => go({ view: 'history', runId: null })} openRun={(runId) => go({ view: 'history', runId })} />}
        {route.view === 'compare' && <CompareView runIds={route.runIds} setRunIds={(runIds) => go({ view: 'compare', runIds })} />}
        {route.view === 'scenarios' && <ScenariosView draft={draft} setDraft={setDraft} start={start} busy={running} />}
      </main>
      {help && <ShortcutHelp onClose={() => setHelp(false)} />}
    </div>
  );
}
