import type { EngineEvent } from '../../contract/api.js';
import type { RunStatus } from '../../contract/results.js';
import type { Phase, Scenario } from '../../contract/scenario.js';
import { plannedMs, progressPlan, type ProgressPlan } from '../../contract/phase.js';
import type { TargetOutcome } from './load-generator.js';

// A run's progress, computed once, here; the UI and the CLI only display it.
//
//   per phase:   requests done / requests planned        (count phases: burst, sequential, closed+count)
//                load time since its start / planned time (timed phases: rate, closed+duration, ramps)
//   per server run: the mean of its phases' fractions; a capacity search (its steps are appended
//                as they end) is one timed span: load time / the search's time bound
//                (min(maxDurationMs, maxSteps x (step + timeoutMs))), 100 % only when it ends
//   the run:     (server runs done + the current one's fraction) / server runs
//
// It never goes down, stays below 100 % until the run completes, and a cancelled or failed run keeps
// the fraction it reached. `remaining` is the load time left: exact when every phase is timed,
// otherwise extrapolated from the load time so far (by requests when every phase counts requests) (server start-up is not load time, so the
// seconds a cluster spends starting do not inflate it).

export interface ProgressSnapshot {
  elapsedMs: number;
  remainingMs: number | null;
  requests: number;
  fraction: number;
}

/** What one server run will run: its phases, or a capacity search (steps appended as they end). */
export type TargetPlan = readonly Phase[] | { searchMs: number };

/** A cell's plan: a capacity search is timed by its bound, as it cannot know its step count. */
export function targetPlanOf(scenario: Pick<Scenario, 'phases' | 'capacity'>): TargetPlan {
  const c = scenario.capacity;
  const step = scenario.phases[0];
  if (c === undefined || step === undefined || (step.executor !== 'rate' && step.executor !== 'closed')) return scenario.phases;
  return { searchMs: Math.min(c.maxDurationMs + step.timeoutMs, c.maxSteps * ((step.durationMs ?? 0) + step.timeoutMs)) };
}

interface PhaseState {
  plan: ProgressPlan;
  requests: number;
  startedAt: number | null;
  ended: boolean;
  /** when it ended: a phase cut short by a cancel counts the time it ran, not its whole plan */
  endedAt: number | null;
}

const RUNNING_CAP = 0.99;

export class RunProgress {
  private requestsDone = 0;
  private targetsDone = 0;
  /** what the ended server runs reached: 1 each, but a failed or cancelled one only its own fraction */
  private targetsReached = 0;
  private phases: PhaseState[] = [];
  /** the current server run is a capacity search: every step counts into its one span */
  private search = false;
  private loadStartedAt: number | null = null;
  private loadDoneMs = 0;
  private highest = 0;
  private final: number | null = null;
  private readonly startedAt: number;

  constructor(
    /** the phases of each server run, in order (or its capacity search) */
    private readonly targets: readonly TargetPlan[],
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
  }

  /** The next server run begins. */
  targetStarted(): void {
    const plan = this.targets[this.targetsDone] ?? [];
    this.search = 'searchMs' in plan;
    this.phases = 'searchMs' in plan ? [{ plan: { kind: 'time', durationMs: plan.searchMs }, requests: 0, startedAt: null, ended: false, endedAt: null }] : plan.map((p) => ({ plan: progressPlan(p), requests: 0, startedAt: null, ended: false, endedAt: null }));
    this.loadStartedAt = null;
  }

  /** Every event of the current server run passes through here on its way out. */
  observe(event: EngineEvent): void {
    if (event.event === 'run:window') {
      this.requestsDone += event.payload.count;
      const index = this.search ? 0 : event.payload.phaseIndex;
      const phase = index === null ? undefined : this.phases[index];
      if (phase) phase.requests += event.payload.count;
    } else if (event.event === 'run:phase') {
      const phase = this.phases[this.search ? 0 : event.payload.phaseIndex];
      this.loadStartedAt ??= this.now();
      if (!phase) return;
      if (event.payload.state === 'started') phase.startedAt ??= this.now();
      // a search's span ends with its server run, not with a step
      else if (!this.search) {
        phase.ended = true;
        phase.endedAt ??= this.now();
      }
    }
  }

  /** A server run ended; one that failed or was cancelled counts what it reached, not a whole run. */
  targetEnded(status: TargetOutcome['status'] = 'completed'): void {
    this.targetsReached += status === 'failed' || status === 'cancelled' ? this.currentFraction() : 1;
    if (this.loadStartedAt !== null) this.loadDoneMs += this.now() - this.loadStartedAt;
    this.loadStartedAt = null;
    this.targetsDone += 1;
    this.phases = [];
  }

  /** The run ended: completed is 100 %, anything else keeps what it reached. */
  finish(status: RunStatus): void {
    this.final = status === 'completed' ? 1 : Math.min(RUNNING_CAP, this.fraction());
  }

  /** The current server run's phases, each by what it did (an ended phase as far as it got, so a cancel that ends it early does not count it whole). */
  private currentFraction(): number {
    if (this.phases.length === 0) return 0;
    const now = this.now();
    let sum = 0;
    for (const p of this.phases) {
      if (p.plan.kind === 'requests') sum += p.plan.requests > 0 ? Math.min(1, p.requests / p.plan.requests) : p.ended ? 1 : 0;
      else if (p.startedAt !== null) sum += p.plan.durationMs > 0 ? Math.min(1, ((p.endedAt ?? now) - p.startedAt) / p.plan.durationMs) : 1;
    }
    return sum / this.phases.length;
  }

  private fraction(): number {
    if (this.final !== null) return this.final;
    const raw = (this.targetsReached + this.currentFraction()) / Math.max(1, this.targets.length);
    this.highest = Math.max(this.highest, Math.min(RUNNING_CAP, raw));
    return this.highest;
  }

  snapshot(): ProgressSnapshot {
    const now = this.now();
    const fraction = this.fraction();
    const loadMs = this.loadDoneMs + (this.loadStartedAt === null ? 0 : now - this.loadStartedAt);
    return { elapsedMs: now - this.startedAt, remainingMs: this.final !== null ? 0 : this.remaining(fraction, loadMs), requests: this.requestsDone, fraction };
  }

  private remaining(fraction: number, loadMs: number): number | null {
    // a search's bound is an upper bound, not its length: extrapolated like a count phase
    const lists = this.targets.filter((t): t is readonly Phase[] => !('searchMs' in t));
    const timed = lists.length === this.targets.length && lists.every((phases) => phases.every((p) => progressPlan(p).kind === 'time'));
    if (timed) {
      const planned = lists.reduce((sum, phases) => sum + phases.reduce((s, p) => s + (plannedMs(p) ?? 0), 0), 0);
      return Math.max(0, planned * (1 - fraction));
    }
    // every phase counted in requests: extrapolate by requests, not by server runs, whose sizes differ
    // in a matrix (10 vs 128 requests a cell: 'remaining' jumped 8.5 -> 5.4 -> 13 -> 22 s)
    const counted = lists.length === this.targets.length && lists.every((phases) => phases.every((p) => progressPlan(p).kind === 'requests'));
    if (counted) {
      const planned = lists.reduce((sum, phases) => sum + phases.reduce((s, p) => {
        const plan = progressPlan(p);
        return s + (plan.kind === 'requests' ? plan.requests : 0);
      }, 0), 0);
      const done = Math.min(this.requestsDone, planned);
      return done < planned * 0.02 || loadMs <= 0 ? null : (loadMs * (planned - done)) / done;
    }
    // extrapolate the load time so far; too early to say below 2 %
    return fraction < 0.02 || loadMs <= 0 ? null : (loadMs * (1 - fraction)) / fraction;
  }
}
