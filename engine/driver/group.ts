import type { Phase } from '../../contract/scenario.js';
import { phaseSlots } from '../../contract/phase.js';
import { executorOf, type ExecutorState, type GroupPort } from './executors/index.js';
import { PhaseInputs } from './requests/phase-inputs.js';
import { checksReadHeaders } from './requests/compiled-request.js';
import { RequestSource } from './requests/request-source.js';
import { nowUs } from './clock.js';
import { ERROR_CODE, NO_ERROR } from './measure/raw-rows.js';
import { BoundsCrossed } from './measure/bounds-crossed.js';
import type { PhaseStats } from './measure/stats.js';
import { NumberRing } from './ring.js';
import type { Scheduler, Timed } from './scheduler.js';
import { CHECK_RESPONSE, type Slot, type SlotOwner } from './slot.js';
import { SlotPool } from './slot-pool.js';
import { OverBound } from './over-bound.js';
import { DEADLINE_ERROR, transportFor, type Target, type TraceIds, type Transport, type WarmConnection } from './transport/index.js';
import { ABORT_CANCEL, ABORT_DATA, ABORT_DEADLINE, ABORT_NONE, type ChooseTransport, type GroupOwner } from './group-owner.js';

// One client group of one phase: a fixed set of in-flight slots (slot-pool.ts) and their dispatch.
// When requests are issued is the executor's business (executors/), called at start, when a request
// settles, on each scheduler tick and at a stop; which request is the request source's (requests/);
// how it reaches the target is the group's transport's, chosen once from the Target (transport/).
//   queue:  intended times waiting at the client (rate: arrivals with no free slot;
//           closed: users due back from think time / a retry after an error), oldest first

export class ClientGroup implements Timed, GroupPort, SlotOwner {
  private readonly slots: SlotPool;
  inFlight = 0;
  readonly queue = new NumberRing();
  readonly held = new NumberRing();
  private readonly transport: Transport;
  private readonly source: RequestSource;
  private readonly executor: ExecutorState;
  readonly stats: PhaseStats;
  /** each request's deadline from its send (µs) */
  private readonly timeoutUs: number;
  private depth = 0;
  finished = false;
  abortKind = ABORT_NONE;
  private readonly overBound: OverBound;
  /** the server run's trace seqs when the phase sends traceparent, else null (no per-request work) */
  private readonly traces: TraceIds | null;

  constructor(
    readonly phaseIndex: number,
    readonly clientIndex: number,
    phase: Phase,
    readonly startUs: number,
    target: Target,
    private readonly scheduler: Scheduler,
    private readonly owner: GroupOwner,
    warm: readonly WarmConnection[] = [],
    inputs: PhaseInputs = new PhaseInputs(null),
    chooseTransport: ChooseTransport = transportFor,
  ) {
    this.stats = owner.stats;
    this.timeoutUs = phase.timeoutMs * 1000;
    const slots = phaseSlots(phase);
    const crossed = owner.crossed ?? new BoundsCrossed();
    this.overBound = new OverBound(crossed, (slot, code) => this.settle(slot, code));
    this.source = new RequestSource(phase, phaseIndex, clientIndex, slots, inputs, crossed);
    const readsHeaders = (this.source.flow?.readsHeaders ?? false) || checksReadHeaders(phase);
    this.traces = phase.traceparent === true ? (owner.traces ?? null) : null;
    this.transport = chooseTransport(target, phase, { slots, columns: inputs.data?.columns ?? [], connections: owner.connections ?? null, readsHeaders, warm, ...(this.traces !== null && { tracePrefix: this.traces.prefix }) });
    this.executor = executorOf(phase).create(phase, { startUs, seed: this.source.seed });
    this.slots = new SlotPool(this, slots);
  }

  start(): void {
    this.depth++;
    this.executor.start(this);
    if (this.executor.scheduled) {
      this.pump(nowUs());
      this.scheduler.add(this);
    }
    this.depth--;
    this.checkFinished();
  }

  /**
   * The deadline check (the phase's timer, run.ts): a request out for longer than timeoutMs fails as
   * a timeout, whatever its connection does (idle timers do not bound a trickled or endless body).
   */
  expireOverdue(now: number): void {
    if (this.inFlight === 0 || this.finished) return;
    this.depth++;
    this.slots.overdue(now, now - this.timeoutUs, this.expire);
    this.depth--;
    this.checkFinished();
  }

  /**
   * A request past its deadline, recorded as a timeout now. Its slot is renewed first: a destroyed
   * request's error comes a turn later, when the slot may be on its next request. The transport
   * resets just the request (h2) or drops its connection before the settle lets the executor send again.
   */
  private readonly expire = (old: Slot): void => {
    this.slots.renew(old);
    const reset = this.transport.expire(old.index, Number.isNaN(old.sent) ? null : old.abortRequest);
    this.settle(old, ERROR_CODE.timeout);
    try {
      reset?.(DEADLINE_ERROR);
    } catch {
      // undici resumes its queue inside abort and throws when the session is already gone; its disconnect drops the client
    }
  };

  freeSlots(): number {
    return this.slots.freeCount;
  }

  thinkAfterUs(phaseUs: number): number {
    return this.source.thinkAfterUs(phaseUs);
  }

  wake(atUs: number): void {
    this.scheduler.wake(atUs);
  }

  issue(intended: number): void {
    if (this.abortKind === ABORT_DATA) return;
    if (this.stats.rowsHeld) return this.held.push(intended);
    const flow = this.source.flow;
    const t = this.source.next(intended);
    const user = this.source.user;
    const request = this.transport.requests[t]!;
    // before a slot is taken: a unique data file that ran out ends the group instead
    if (request.variable !== null && !this.source.fill(request.variable)) return this.runOutOfData();
    const slot = this.slots.take();
    slot.begin(intended, t, request.bodyIncludes, (user !== null && flow!.keepsBody[t]!) || request.checks?.readsBody === true, this.traces === null ? NaN : this.traces.next(), request.checks?.headers);
    if (user !== null) slot.step(user, flow!.header[t]!);
    this.inFlight++;
    // {{user}}: a flow's user, else the sending slot numbered across the phase's groups
    const inputs = request.variable === null ? null : this.source.inputsFor(user?.number ?? this.clientIndex * this.slots.size + slot.index + 1, slot.vars);
    if (!this.transport.send(slot.index, t, inputs, slot, slot.seq)) this.overBound.refuse(slot);
  }

  /** The row batches are back (RowSink's hold ended): what issue() held meanwhile (`held`, intended times) goes out in order. */
  resume(): void {
    while (this.held.length > 0 && !this.stats.rowsHeld && this.abortKind === ABORT_NONE) this.issue(this.held.shift());
    this.checkFinished();
  }

  /** No row left in a unique data file: no more requests from this group; those in flight finish. */
  private runOutOfData(): void {
    this.abortKind = ABORT_DATA;
    this.executor.stop();
    this.queue.clear();
    this.held.clear();
  }

  /** A request ended: a complete response (CHECK_RESPONSE) or an error code. */
  settle(slot: Slot, code: number): void {
    if (!slot.active) return;
    slot.active = false;
    const done = nowUs();
    if (code === CHECK_RESPONSE) code = this.stats.responses.code(this.transport.requests[slot.template]!, slot, this.abortKind !== ABORT_CANCEL);
    const user = slot.user;
    if (user !== null) {
      slot.user = null;
      code = this.source.stepSettled(user, code, slot, done);
    }
    if (this.abortKind === ABORT_DEADLINE && code !== NO_ERROR) code = ERROR_CODE.timeout;
    if (this.abortKind !== ABORT_CANCEL) this.stats.record(slot, done, code);
    if (slot.keepBody) slot.body!.release();
    this.slots.release(slot);
    this.inFlight--;
    if (this.abortKind === ABORT_NONE) {
      this.depth++;
      this.executor.settled(this, done, code === NO_ERROR);
      this.depth--;
    }
    this.source.settleDone();
    this.checkFinished();
  }

  pump(now: number): void {
    if (this.abortKind !== ABORT_NONE || this.finished) return;
    this.depth++;
    this.executor.pump(this, now);
    this.depth--;
    this.checkFinished();
  }

  nextDue(): number {
    return this.executor.nextDue(this);
  }

  /** Stop issuing; a deadline records what is still waiting or in flight as timeouts, a cancel drops it. */
  abort(kind: number): void {
    if (this.finished || (this.abortKind !== ABORT_NONE && this.abortKind !== ABORT_DATA)) return;
    this.abortKind = kind;
    this.executor.stop();
    if (kind === ABORT_DEADLINE && this.executor.queueOwed) this.stats.recordOwed(this.phaseIndex, this.clientIndex, [this.held, this.queue], nowUs(), this.source.picker);
    this.queue.clear();
    this.held.clear();
    if (this.inFlight > 0) this.transport.destroyAll();
    this.checkFinished();
  }

  private checkFinished(): void {
    // out of data, an executor still in its loop may have queued arrivals or left some pending: none are sent
    if (this.abortKind === ABORT_DATA) this.runOutOfData();
    if (this.finished || this.depth > 0 || this.inFlight > 0 || this.queue.length > 0 || this.held.length > 0 || (this.abortKind === ABORT_NONE && this.executor.pending())) return;
    this.finished = true;
    this.scheduler.remove(this);
    this.transport.closeAll();
    this.owner.groupFinished();
  }
}
