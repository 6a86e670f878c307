import type { EventPayload } from '../../contract/api';
import type { CellInfo, RunStatus } from '../../contract/results';
import { appendCapped, emptyTarget, phaseMarkFromEvent, type RunSeries, type TargetSeries } from './run-data';

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
  totalTargets = 0;
  progress: RunProgress | null = null;
  finished: { status: RunStatus; reason: string | null } | null = null;
  error: string | null = null;
  /**
   * Requests counted from the live windows. The engine's progress event counts only finished
   * server runs, so during the first one it says 0; the larger of the two is shown.
   */
  windowRequests = 0;
  /** The plan's load time (ms), known from the first progress event with an estimate. */
  plannedMs: number | null = null;
  readonly series: RunSeries = { runId: 0, targets: [] };
  version = 0;
  /** Called after every change (the hook batches these into animation frames). */
  onChange: (() => void) | null = null;

  private touch(): void {
    this.version++;
    this.onChange?.();
  }

  /** Forget the previous run and wait for the next one (the UI is about to start it). */
  reset(phase: LivePhase = 'starting'): void {
    this.phase = phase;
    this.runId = null;
    this.title = '';
    this.scenarioName = '';
    this.cells = [];
    this.totalTargets = 0;
    this.progress = null;
    this.finished = null;
    this.error = null;
    this.windowRequests = 0;
    this.plannedMs = null;
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
    }
    return t;
  }

  started(p: EventPayload<'run:started'>): void {
    if (!this.mine(p.runId)) return;
    this.title = p.title;
    this.scenarioName = p.scenarioName;
    this.cells = p.cells;
    this.totalTargets = p.totalTargets;
    this.touch();
  }

  targetChanged(p: EventPayload<'run:target'>): void {
    if (!this.mine(p.runId)) return;
    const t = this.target(p.targetId, p.label);
    t.label = p.label;
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
    this.windowRequests += p.count;
    t.thinning *= appendCapped(t.windows, p);
    if (t.state === 'pending') t.state = 'running';
    this.touch();
  }

  sample(p: EventPayload<'run:sample'>): void {
    if (!this.mine(p.runId)) return;
    appendCapped(this.target(p.targetId).samples, p);
    this.touch();
  }

  progressed(p: EventPayload<'run:progress'>): void {
    if (!this.mine(p.runId)) return;
    this.progress = { elapsedMs: p.elapsedMs, remainingMs: p.remainingMs, requests: p.requests, fraction: p.fraction };
    // the engine's remaining is planned - elapsed, so while it is positive their sum is the plan
    if (p.remainingMs !== null && p.remainingMs > 0) this.plannedMs = p.elapsedMs + p.remainingMs;
    this.touch();
  }

  /**
   * Load time done so far: per server run, from its first phase to its latest window. Unlike the
   * wall-clock elapsed time it leaves out server start-up, so it can be set against the plan.
   */
  loadDoneMs(): number {
    let done = 0;
    for (const t of this.series.targets) {
      const last = t.windows.at(-1);
      if (last !== undefined) done += Math.max(0, last.tMs - (t.phases[0]?.tMs ?? 0));
    }
    return done;
  }

  ended(p: EventPayload<'run:finished'>): void {
    if (!this.mine(p.runId)) return;
    this.finished = { status: p.status, reason: p.reason };
    this.phase = 'finished';
    this.touch();
  }
}
