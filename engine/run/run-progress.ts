import type { EngineEvent } from '../../contract/api.js';

/**
 * The figures of a run's progress events. Requests are counted from the live windows as they arrive
 * (not only when a server run ends), and time is measured against load time: a server run's clock
 * starts at its first phase, so server start-up and shutdown do not eat into "remaining".
 */
export class RunProgress {
  private requestsDone = 0;
  private requestsLive = 0;
  private plannedDoneMs = 0;
  private targetsDone = 0;
  private loadStartedAt: number | null = null;
  private plannedCurrentMs: number | null = null;
  private readonly startedAt = performance.now();

  constructor(
    /** planned load time of the whole run (every target), 0 when some phase has no planned length */
    private readonly plannedMs: number,
    private readonly targets: number,
  ) {}

  /** A server run begins; its planned load time, or null when its phases do not say. */
  targetStarted(plannedMs: number | null): void {
    this.plannedCurrentMs = plannedMs;
    this.loadStartedAt = null;
    this.requestsLive = 0;
  }

  /** Every event of the current server run passes through here on its way out. */
  observe(event: EngineEvent): void {
    if (event.event === 'run:window') this.requestsLive += event.payload.count;
    else if (event.event === 'run:phase' && event.payload.state === 'started' && this.loadStartedAt === null) this.loadStartedAt = performance.now();
  }

  targetEnded(requests: number): void {
    this.requestsDone += requests;
    this.requestsLive = 0;
    this.plannedDoneMs += this.plannedCurrentMs ?? 0;
    this.targetsDone += 1;
    this.loadStartedAt = null;
  }

  snapshot(): { elapsedMs: number; remainingMs: number | null; requests: number; fraction: number } {
    const elapsedMs = performance.now() - this.startedAt;
    const requests = this.requestsDone + this.requestsLive;
    if (this.plannedMs <= 0) return { elapsedMs, remainingMs: null, requests, fraction: this.targetsDone / Math.max(1, this.targets) };
    const current = this.loadStartedAt === null ? 0 : Math.min(this.plannedCurrentMs ?? 0, performance.now() - this.loadStartedAt);
    const doneMs = Math.min(this.plannedMs, this.plannedDoneMs + current);
    return { elapsedMs, remainingMs: this.plannedMs - doneMs, requests, fraction: doneMs / this.plannedMs };
  }
}
