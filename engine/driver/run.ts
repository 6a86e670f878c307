import type { Phase } from '../../contract/scenario.js';
import { nowUs, setT0, t0 } from './clock.js';
import { OwnCpu } from './measure/own-cpu.js';
import { ClientGroup } from './group.js';
import { ABORT_CANCEL, ABORT_DEADLINE, type GroupOwner } from './group-owner.js';
import { opensAhead, targetOf, TraceIds, warmConnection, type Target, type WarmConnection } from './transport/index.js';
import { Scheduler } from './scheduler.js';
import { PhaseInputs } from './requests/phase-inputs.js';
import { PhaseStats, RowSink } from './measure/stats.js';
import { ConnectionTimes } from './measure/accumulators.js';
import { BoundsCrossed } from './measure/bounds-crossed.js';
import { DEFAULT_WINDOW_MS, type DriverPhaseResult, type DriverPlan, type DriverResult, type FromWorkerMessage } from './types.js';
import { shouldWarm, warmUp } from './warmup.js';
import { awaitAdmission } from './admission.js';
import { STARTUP_MS } from '../../contract/measurement.js';
import { isOpenLoop, phaseDeadlineMs, phaseOpenAhead, plannedMs as phasePlannedMs } from '../../contract/phase.js';

export type Post = (msg: FromWorkerMessage, transfer?: ArrayBuffer[]) => void;

const msUntil = (us: number): number => Math.max(0, (us - nowUs()) / 1000);

/** How often a phase checks its requests' deadlines (ms): a request fails between timeoutMs and timeoutMs + this after its send; one timer per phase, not one per request. */
function deadlineCheckMs(timeoutMs: number): number {
  return Math.min(250, Math.max(5, timeoutMs / 4));
}

// An open-loop phase's first arrivals would otherwise each open a connection of their own while the
// first connects are still pending (a cascade of ~180 connects at 5,000 req/s, whose connect times
// are the lag of those requests: sent is stamped when the bytes go to a connected socket). So before
// t0 the runner opens, per client group of each rate phase, the connections its first WARM_S of
// arrivals would need with no reuse, and waits for them (at most PRECONNECT_MAX_MS). Nothing is sent
// on them before the schedule; a connection that fails or is closed meanwhile is opened again on use.
const WARM_S = 0.002;
const PRECONNECT_MAX_MS = 1000;

// PRECONNECT: a closed phase's users connecting at t0 race a single-threaded server's accept queue.
// Node accepts one pending connection per event-loop turn, and once the first users' requests flow a
// turn lasts as long as serving all of them, so on seed 004's red server many users got in seconds
// late depending on the connect order (figures: docs/performance.md, "Figures behind the code"). With `preconnect` the users' handshakes complete before t0
// (wrk does the same); the server may still be taking them off its queue when t0 comes (one quiet
// run in three still admitted users late: see seed-004's caveat in reproduce/shape-checks.ts), so for
// a bundled target t0 also waits, bounded, until the server has taken them (ADMISSION in admission.ts).

// Raw rows go to the main thread every ROWS_FLUSH_MS, not only at each 250 ms window: the main
// thread stores a batch as soon as it arrives, and on a core it shares with this thread one window's
// worth of inserts at once delayed the sends due just after each window edge (figures:
// docs/performance.md, "Figures behind the code").
const ROWS_FLUSH_MS = 25;

/** One phase while it runs: its client groups, its stats, its deadlines. */
class PhaseRun implements GroupOwner {
  readonly stats: PhaseStats;
  readonly connections: ConnectionTimes;
  readonly crossed = new BoundsCrossed();
  readonly groups: ClientGroup[] = [];
  private remaining: number;
  private readonly timers: NodeJS.Timeout[] = [];
  endUs = -1;
  hitDeadline = false;
  /** the phase's counter and data rows, shared by its client groups */
  readonly inputs: PhaseInputs;

  constructor(
    readonly index: number,
    readonly phase: Phase,
    readonly startUs: number,
    private readonly runner: Runner,
  ) {
    this.stats = PhaseStats.of(phase, runner.rows);
    this.connections = new ConnectionTimes(startUs + STARTUP_MS * 1000);
    this.remaining = phase.clients;
    this.inputs = new PhaseInputs(runner.plan.data?.find((d) => d.name === phase.data) ?? null);
  }

  get traces(): TraceIds | undefined {
    return this.runner.traces;
  }

  start(): void {
    const p = this.phase;
    for (let k = 0; k < p.clients; k++) {
      this.groups.push(new ClientGroup(this.index, k, p, this.startUs, this.runner.target, this.runner.scheduler, this, this.runner.warm[this.index]?.[k], this.inputs));
    }
    // sends stop; whatever is still waiting or in flight gets timeoutMs more (contract/phase.ts)
    this.timers.push(setTimeout(() => this.abort(ABORT_DEADLINE), msUntil(this.startUs + phaseDeadlineMs(p) * 1000)));
    // each request's own deadline, checked for all of the phase's requests by one timer (group.ts)
    this.timers.push(setInterval(this.expireOverdue, deadlineCheckMs(p.timeoutMs)));
    for (const g of this.groups) if (!g.finished) g.start();
  }

  private readonly expireOverdue = (): void => {
    const now = nowUs();
    for (const g of this.groups) g.expireOverdue(now);
  };

  abort(kind: number): void {
    if (this.endUs >= 0) return;
    if (kind === ABORT_DEADLINE) this.hitDeadline = true;
    for (const g of this.groups) g.abort(kind);
  }

  get inFlight(): number {
    let n = 0;
    for (const g of this.groups) n += g.inFlight;
    return n;
  }

  get queued(): number {
    let n = 0;
    for (const g of this.groups) n += g.queue.length + g.held.length;
    return n;
  }

  groupFinished(): void {
    if (--this.remaining > 0) return;
    // clears the deadline check's interval too (Node's timers are one kind)
    for (const t of this.timers) clearTimeout(t);
    this.endUs = nowUs();
    // ends on a later turn: a group can finish inside start(), before its siblings have started
    queueMicrotask(() => this.runner.phaseEnded(this));
  }
}

/**
 * The driver's schedule: phases started at their `at` offset or when the previous one ends, live
 * windows every windowMs, raw rows in batches, cancel. Runs inside the worker; everything goes out
 * through `post`.
 */
export class Runner {
  readonly scheduler = new Scheduler(() => {
    let n = 0;
    for (const r of this.runs) if (r && r.endUs < 0) n += r.inFlight;
    return n;
  });
  readonly rows: RowSink;
  private readonly windowMs: number;
  private readonly runs: (PhaseRun | null)[];
  private readonly results: (DriverPhaseResult | null)[];
  private readonly startTimers: NodeJS.Timeout[] = [];
  private windowTimer: NodeJS.Timeout | null = null;
  private rowsTimer: NodeJS.Timeout | null = null;
  private windowIndex = 0;
  /** phases that ended since the last window (they still get that window) */
  private endedSinceWindow: PhaseRun[] = [];
  /** the generator's own CPU per window, measured from t0 (the warm-up before it is not the load's) */
  private ownCpu: OwnCpu | null = null;
  private ended = 0;
  private cancelled = false;
  private finished = false;
  private resolveDone: (r: DriverResult) => void = () => undefined;
  /** connections opened before t0, by phase and client group (see WARM_S) */
  readonly warm: (WarmConnection[][] | null)[];
  /** where the load goes and how (the plan's, as one value passed down: transport/target.ts) */
  readonly target: Target;
  /** the server run's trace seqs, shared by every tracing phase's groups (absent: the plan has no trace prefix) */
  readonly traces: TraceIds | undefined;

  constructor(
    readonly plan: DriverPlan,
    private readonly post: Post,
  ) {
    this.target = targetOf(plan);
    this.traces = plan.tracePrefix === undefined ? undefined : new TraceIds(plan.tracePrefix);
    this.windowMs = plan.windowMs ?? DEFAULT_WINDOW_MS;
    this.rows = new RowSink(true, (rows, count) => post({ type: 'rows', rows, count }, [rows.buffer as ArrayBuffer]), plan.rowsLent === true, () => this.resumeGroups());
    this.runs = plan.phases.map(() => null);
    this.results = plan.phases.map(() => null);
    this.warm = plan.phases.map((p) => this.warmFor(p));
  }

  /**
   * The connections opened before a phase starts (null: none): a rate phase's first WARM_S of
   * arrivals with no reuse; a closed phase with `preconnect`, every user's (see PRECONNECT below).
   */
  private warmFor(p: Phase): WarmConnection[][] | null {
    const n = phaseOpenAhead(p, WARM_S);
    // h2 / h2c never use the HTTP/1.1 fast path's connections (transport/target.ts)
    if (n === 0 || !opensAhead(this.target, p)) return null;
    return Array.from({ length: p.clients }, () => Array.from({ length: n }, () => warmConnection(this.target, p)));
  }

  async run(): Promise<DriverResult> {
    const done = new Promise<DriverResult>((resolve) => (this.resolveDone = resolve));
    // before t0, and before 'started' (so a caller's CPU or time measure starts after it): see warmup.ts
    // an open plan (a capacity search) is warmed even when its first step is small: every later,
    // larger step is judged by the generator's lag too
    const searching = this.plan.open === true && this.plan.phases.some(isOpenLoop);
    if (searching || shouldWarm(this.plan.phases, this.plan.baseUrl)) await warmUp(1000);
    if (this.finished) return done;
    const opened = await this.preconnect();
    if (this.finished) return done;
    // only connections opened ahead can wait in the queue before t0
    const admission = opened > 0 && this.plan.admissionPort !== undefined ? await awaitAdmission(this.plan.admissionPort) : undefined;
    if (this.finished) return done;
    setT0(performance.now());
    this.ownCpu = new OwnCpu();
    this.post({ type: 'started', t0EpochMs: performance.timeOrigin + t0(), ...(admission !== undefined && { admission }) });
    this.armWindow();
    this.rowsTimer = setInterval(() => this.rows.flush(), ROWS_FLUSH_MS);
    this.plan.phases.forEach((p, i) => {
      if (p.at !== undefined) this.startTimers.push(setTimeout(() => this.startPhase(i, p.at! * 1000), msUntil(p.at * 1000)));
      else if (i === 0) this.startPhase(0, 0);
    });
    if (this.plan.phases.length === 0) this.finish();
    return done;
  }

  /**
   * An open plan's next phase (a capacity search's step): it starts once its first connections are
   * open (as before t0, so the step's lag is the schedule's, not a connect cascade's), on the same t0.
   */
  async append(phase: Phase): Promise<void> {
    if (this.cancelled || this.finished || !this.plan.open) return;
    const warm = this.warmFor(phase);
    const closeWarm = () => (warm ?? []).flat().forEach((c) => c.close());
    await this.preconnect([warm]);
    if (this.cancelled || this.finished) return closeWarm();
    // the time bound holds at the phase's real start, which comes after the choice of it (the main
    // thread's judgement, the connections opened above): a busy machine can put it past the bound
    const startUs = nowUs();
    const plannedMs = phasePlannedMs(phase);
    if (this.plan.appendUntilMs !== undefined && (plannedMs === null || startUs / 1000 + plannedMs > this.plan.appendUntilMs)) {
      closeWarm();
      return this.close();
    }
    const i = this.plan.phases.length;
    this.plan.phases.push(phase);
    this.runs.push(null);
    this.results.push(null);
    this.warm.push(warm);
    this.startPhase(i, startUs);
  }

  /** An open plan gets no more phases: the run ends when the running ones have. */
  close(): void {
    if (!this.plan.open) return;
    this.plan.open = false;
    if (this.ended === this.plan.phases.length) this.finish();
  }

  /** Opens the connections of `warm` (at most PRECONNECT_MAX_MS); how many were asked for. */
  private async preconnect(warm: readonly (WarmConnection[][] | null)[] = this.warm): Promise<number> {
    const opens = warm.flatMap((byClient) => (byClient ?? []).flat().map((c) => c.open()));
    if (opens.length === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(opens), new Promise<void>((resolve) => (timer = setTimeout(resolve, PRECONNECT_MAX_MS)))]);
    clearTimeout(timer);
    return opens.length;
  }

  cancel(): void {
    if (this.cancelled || this.finished) return;
    this.cancelled = true;
    for (const t of this.startTimers) clearTimeout(t);
    let running = 0;
    for (const r of this.runs) {
      if (r && r.endUs < 0) {
        running++;
        r.abort(ABORT_CANCEL);
      }
    }
    if (running === 0) this.finish();
  }

  private startPhase(i: number, startUs: number): void {
    if (this.cancelled || this.runs[i]) return;
    const run = new PhaseRun(i, this.plan.phases[i]!, startUs, this);
    this.runs[i] = run;
    this.post({ type: 'phase-start', phaseIndex: i, tMs: startUs / 1000 });
    run.start();
  }

  /** A row batch came back after a hold (RowSink): every running group sends what it held. */
  private resumeGroups(): void {
    for (const r of this.runs) if (r && r.endUs < 0) for (const g of r.groups) g.resume();
  }

  phaseEnded(run: PhaseRun): void {
    this.rows.flush(true);
    const measured = run.stats.result(run.index, run.phase, run.startUs, run.endUs, run.hitDeadline);
    const name = `phase '${measured.result.name}'`;
    const notes = [run.inputs.exhaustedNote(name), run.crossed.note(name)].filter((n) => n !== null);
    const note = notes.length === 0 ? null : notes.join('; ');
    const connections = run.connections.result();
    const figures = connections === undefined ? measured : { ...measured, result: { ...measured.result, connections } };
    const result = note === null ? figures : { ...figures, note };
    this.results[run.index] = result;
    this.endedSinceWindow.push(run);
    this.ended++;
    this.post({ type: 'phase-end', phaseIndex: run.index, tMs: run.endUs / 1000, result });
    const next = run.index + 1;
    if (next < this.plan.phases.length && this.plan.phases[next]!.at === undefined) this.startPhase(next, run.endUs);
    const started = this.runs.filter((r) => r !== null).length;
    // an open plan waits for its next phase ('append') or its end ('close')
    const allDone = (this.ended === this.plan.phases.length && !this.plan.open) || (this.cancelled && this.ended === started);
    if (allDone) this.finish();
  }

  private armWindow(): void {
    const due = (this.windowIndex + 1) * this.windowMs * 1000;
    this.windowTimer = setTimeout(this.onWindow, msUntil(due));
  }

  private readonly onWindow = (): void => {
    this.windowIndex++;
    this.emitWindows(this.windowIndex * this.windowMs);
    this.armWindow();
  };

  private emitWindows(tMs: number): void {
    // one figure for the tick: every phase's window of it covers the same time
    const ownCpu = this.ownCpu?.take() ?? null;
    for (const r of this.runs) {
      if (r && r.endUs < 0) this.post({ type: 'window', window: { ...r.stats.takeWindow(r.index, tMs, this.windowMs, r.inFlight, r.queued), ownCpu } });
    }
    for (const r of this.endedSinceWindow) this.post({ type: 'window', window: { ...r.stats.takeWindow(r.index, tMs, this.windowMs, 0, 0), ownCpu } });
    this.endedSinceWindow = [];
    this.rows.flush();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.windowTimer) clearTimeout(this.windowTimer);
    if (this.rowsTimer) clearInterval(this.rowsTimer);
    for (const t of this.startTimers) clearTimeout(t);
    this.scheduler.stop();
    // opened ahead for a phase that never started (idle ones only: close() leaves a busy one alone)
    for (const byClient of this.warm) for (const c of (byClient ?? []).flat()) c.close();
    // the last, partial window
    if (this.endedSinceWindow.length > 0) this.emitWindows(Math.min(nowUs() / 1000, (this.windowIndex + 1) * this.windowMs));
    this.rows.flush(true);
    const lastEnd = Math.max(0, ...this.runs.map((r) => (r ? r.endUs : 0)));
    const result: DriverResult = {
      cancelled: this.cancelled,
      t0EpochMs: performance.timeOrigin + t0(),
      durationMs: lastEnd / 1000,
      phases: this.results.filter((r): r is DriverPhaseResult => r !== null),
    };
    this.post({ type: 'done', result });
    this.resolveDone(result);
  }
}
