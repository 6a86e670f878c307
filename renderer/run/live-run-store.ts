import type { EventPayload } from '../../contract/api';
import { cellName, cellTitle } from '../../contract/cells';
import type { CellInfo, RunStatus } from '../../contract/results';
import { Scenario } from '../../contract/scenario';
import { appendCapped, emptyTarget, phaseMarkFromEvent, type RunSeries, type SeriesVersions, type TargetSeries } from '../charts/run-data';

// The live state of the run being watched, mutated in place by engine events (many per second) and
// read by React once per animation frame through `version` (see useLiveRun). Events of other runs
// are ignored; the first run:started adopts a run when none is being watched.

export interface RunProgress {
  elapsedMs: number;
  remainingMs: number | null;
  requests: number;
  fraction: number;
}

export type LivePhase = 'idle' | 'starting' | 'running' | 'finished';

export class LiveRunStore {
  phase: LivePhase = 'idle';
  runId: number | null = null;
  title = '';
  scenarioName = '';
  cells: CellInfo[] = [];
  /** the scenario as it runs (quick sizes applied), as the engine announced it */
  scenario: Scenario | null = null;
  totalTargets = 0;
  progress: RunProgress | null = null;
  finished: { status: RunStatus; reason: string | null } | null = null;
  error: string | null = null;
  /** As the engine computed it (engine/run/run-progress.ts); never recomputed here. */
  readonly series: RunSeries = { runId: 0, targets: [] };
  version = 0;
  /** Bumped only when what the charts draw changes (not by progress): charts redraw on this one. */
  seriesVersion = 0;
  /**
   * Which part of the series changed, counted apart: a server chart redraws on a sample (once a
   * second), not on every 250 ms window (docs/performance.md, issue 42's live-view row).
   */
  readonly seriesParts: SeriesVersions = { targets: 0, windows: 0, samples: 0 };
  /** Called after every change (the hook batches these into animation frames). */
  onChange: (() => void) | null = null;

  /** `part`: what of the series changed ('targets': the server runs, their names or phases), or null for none. */
  private touch(part: keyof SeriesVersions | null = 'targets'): void {
    this.version++;
    if (part !== null) {
      this.seriesVersion++;
      this.seriesParts[part]++;
    }
    this.onChange?.();
  }

  /** Forget the previous run and wait for the next one (the UI is about to start it). */
  reset(phase: LivePhase = 'starting'): void {
    this.phase = phase;
    this.runId = null;
    this.title = '';
    this.scenarioName = '';
    this.cells = [];
    this.scenario = null;
    this.totalTargets = 0;
    this.progress = null;
    this.finished = null;
    this.error = null;
    this.series.runId = 0;
    this.series.targets = [];
    this.touch();
  }

  adopt(runId: number): void {
    if (this.runId === runId) return;
    if (this.runId !== null) this.reset();
    this.runId = runId;
    this.series.runId = runId;
    this.phase = 'running';
    this.touch();
  }

  fail(message: string): void {
    this.error = message;
    this.phase = this.runId === null ? 'idle' : this.phase;
    this.touch();
  }

  private mine(runId: number): boolean {
    if (this.runId === null && (this.phase === 'starting' || this.phase === 'idle')) this.adopt(runId);
    return this.runId === runId;
  }

  private target(targetId: number, label?: string): TargetSeries {
    let t = this.series.targets.find((x) => x.targetId === targetId);
    if (t === undefined) {
      t = emptyTarget(targetId, label ?? `server ${this.series.targets.length + 1}`);
      this.series.targets.push(t);
      this.series.targets.sort((a, b) => a.targetId - b.targetId);
      this.seriesParts.targets++; // a new server run: every chart draws it (the caller signals the change)
    }
    return t;
  }

  started(p: EventPayload<'run:started'>): void {
    if (!this.mine(p.runId)) return;
    this.title = p.title;
    this.scenarioName = p.scenarioName;
    this.cells = p.cells;
    const running = Scenario.safeParse(p.scenario);
    this.scenario = running.success ? running.data : null;
    this.totalTargets = p.totalTargets;
    this.touch();
  }

  targetChanged(p: EventPayload<'run:target'>): void {
    if (!this.mine(p.runId)) return;
    const name = cellName(p.label, this.cells, p.cellIndex);
    const t = this.target(p.targetId, name);
    t.label = name;
    t.title = cellTitle(p.label, this.cells, p.cellIndex);
    t.cellIndex = p.cellIndex;
    if (p.architecture !== undefined) t.architecture = p.architecture;
    t.state = p.status;
    t.reason = p.reason;
    this.touch();
  }

  phaseChanged(p: EventPayload<'run:phase'>): void {
    if (!this.mine(p.runId) || p.state !== 'started') return;
    this.target(p.targetId).phases.push(phaseMarkFromEvent(p));
    this.touch();
  }

  window(p: EventPayload<'run:window'>): void {
    if (!this.mine(p.runId)) return;
    const t = this.target(p.targetId);
    t.thinning *= appendCapped(t.windows, p);
    if (t.state === 'pending') t.state = 'running';
    this.touch('windows');
  }

  sample(p: EventPayload<'run:sample'>): void {
    if (!this.mine(p.runId)) return;
    appendCapped(this.target(p.targetId).samples, p);
    this.touch('samples');
  }

  progressed(p: EventPayload<'run:progress'>): void {
    if (!this.mine(p.runId)) return;
    this.progress = { elapsedMs: p.elapsedMs, remainingMs: p.remainingMs, requests: p.requests, fraction: p.fraction };
    this.touch(null);
  }

  ended(p: EventPayload<'run:finished'>): void {
    if (!this.mine(p.runId)) return;
    this.finished = { status: p.status, reason: p.reason };
    this.phase = 'finished';
    this.touch(null);
  }
}
