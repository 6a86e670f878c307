import { Client, type Dispatcher } from 'undici';
import type { ConnectionTimes } from './measure/accumulators.js';
import { targetConnect } from './transport/connect-timing.js';
import { protocolClientOptions, type Target } from './transport/target.js';
import type { Phase, RequestTemplate } from '../../contract/scenario.js';
import { Prng, TemplatePicker } from './arrivals.js';
import { phaseSlots, phaseThinkMs } from '../../contract/phase.js';
import { executorOf, type ExecutorState, type GroupPort } from './executors/index.js';
import { isFlow } from '../../contract/flow.js';
import { FlowUsers, type FlowResponse, type FlowUser } from './requests/flow-users.js';
import { H1Connection, compileH1, type H1Handler, type H1Request } from './transport/h1.js';
import { PhaseInputs } from './requests/phase-inputs.js';
import { fixedTemplate, isVariable, VariableRequest, type RequestInputs } from './requests/request-compile.js';
import { nowUs } from './clock.js';
import { ERROR_CODE, NO_ERROR } from './measure/raw-rows.js';
import { BodyIncludes } from './requests/body-includes.js';
import { BodyPrefix } from './requests/body-prefix.js';
import { BoundsCrossed } from './measure/bounds-crossed.js';
import { NumberRing } from './ring.js';
import type { Scheduler, Timed } from './scheduler.js';
import { isServerTimingName, parseServerTiming } from './measure/server-timing.js';
import type { PhaseStats, RequestRecord } from './measure/stats.js';

// One client group of one phase: a fixed set of in-flight slots and their dispatch. When requests
// are issued is the executor's business (executors/: burst, closed, rate, sequential, ...), called
// at start, when a request settles, on each scheduler tick and at a stop.
// A slot is the undici dispatch handler of one request at a time, reused for the next: no
// per-request closures or objects beyond what undici itself allocates. Each slot dispatches to its
// own connection, made on first use: an H1Connection with prebuilt request bytes when the phase
// allows (plain http, keep-alive, ordinary headers; see h1.ts), else an undici Client (a Pool would
// pick a free client per request for the same connections, ~10% more CPU per request).
//
//   slots:  [s0][s1][s2]...[sN-1]      N = burst count | users | 1 | maxInFlight
//   free:   stack of slot indexes (Int32Array, top = freeTop)
//   queue:  intended times waiting at the client (rate: arrivals with no free slot;
//           closed: users due back from think time / a retry after an error), oldest first

export const ABORT_NONE = 0;
export const ABORT_DEADLINE = 1;
export const ABORT_CANCEL = 2;
/** a unique data file ran out: no more requests, those in flight finish normally */
const ABORT_DATA = 3;

interface CompiledTemplate {
  opts: Dispatcher.DispatchOptions;
  /** placeholders: path, headers and body are built per request (request-compile.ts) */
  variable: VariableRequest | null;
  expectStatus: number;
  bodyIncludes: Buffer | null;
}

export function compileTemplates(phase: Phase, columns: readonly string[] = []): CompiledTemplate[] {
  return phase.requests.map((template: RequestTemplate) => {
    const variable = isVariable(template) ? new VariableRequest(template, null, columns) : null;
    const t = variable === null ? fixedTemplate(template) : template;
    return {
      variable,
      opts: {
        path: t.path,
        method: t.method,
        headers: t.headers,
        body: t.body === undefined ? null : Buffer.from(t.body),
        headersTimeout: phase.timeoutMs,
        bodyTimeout: phase.timeoutMs,
        reset: !phase.keepAlive,
      },
      expectStatus: t.expect?.status ?? -1,
      bodyIncludes: t.expect?.bodyIncludes === undefined ? null : Buffer.from(t.expect.bodyIncludes),
    };
  });
}

const CODE_TIMEOUT = ERROR_CODE.timeout;
/** what a request past its deadline is failed with (by then its slot no longer listens: expire()) */
const DEADLINE_ERROR = Object.assign(new Error('the request passed its deadline (timeoutMs from its send)'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
/** what requests still on an h2 client whose session ended are failed with (a reset) */
const SESSION_LOST = Object.assign(new Error('the HTTP/2 session ended'), { code: 'UND_ERR_SOCKET' });

/**
 * How often a phase checks its requests' deadlines (ms): a request is failed between timeoutMs and
 * timeoutMs + this after its send. One timer per phase instead of one per request (run.ts).
 */
export function deadlineCheckMs(timeoutMs: number): number {
  return Math.min(250, Math.max(5, timeoutMs / 4));
}
const CODE_OTHER = ERROR_CODE.other;
/** settle()'s code for a complete response, still to be checked against the template's expect */
const CHECK_RESPONSE = -2;

/** An error's kind (ERROR_CODE) by its code: Node's, undici's, or the fast path's (which uses the same codes). */
export function classifyError(err: unknown): number {
  let code = (err as { code?: unknown } | null)?.code;
  if (code === undefined && err instanceof AggregateError) code = (err.errors[0] as { code?: unknown } | undefined)?.code;
  // a response the parser refused: llhttp's HPE_* codes (undici 7 loses its parser error's code, so its class name too)
  if ((typeof code === 'string' && code.startsWith('HPE_')) || (err as { name?: unknown } | null)?.name === 'HTTPParserError') return ERROR_CODE.protocol;
  switch (code) {
    case 'ECONNREFUSED':
      return ERROR_CODE.refused;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return ERROR_CODE.reset;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return CODE_TIMEOUT;
    // a body that does not match its Content-Length, a head past the parser's bound
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
    case 'UND_ERR_HEADERS_OVERFLOW':
      return ERROR_CODE.protocol;
    default:
      return ERROR_CODE.other;
  }
}

class Slot implements Dispatcher.DispatchHandler, H1Handler, RequestRecord, FlowResponse {
  readonly phase: number;
  readonly client: number;
  intended = 0;
  sent = NaN;
  firstByte = NaN;
  status = 0;
  bytes = 0;
  stWait = NaN;
  stProc = NaN;
  template = 0;
  active = false;
  /** not yet sent (connecting, or queued at an h2 client): when the deadline check first saw it (µs) */
  waitingSince = NaN;
  /** undici's abort of the request it sent last (resets an h2 stream) */
  abortRequest: ((err?: Error) => void) | null = null;
  /** expect.bodyIncludes, searched as the body streams */
  readonly includes = new BodyIncludes();
  /** the body kept for a flow step's extract (bounded), made on the slot's first such step */
  body: BodyPrefix | null = null;
  keepBody = false;
  /** this slot's connection, created on its first request */
  conn: Client | null = null;
  h1: H1Connection | null = null;
  /** the fast path's request when its bytes are built per request */
  readonly built: H1Request = { bytes: Buffer.alloc(0), head: false, variable: null };
  /** what {{vars.<name>}} reads for this slot's requests (journeys give each user theirs), or null */
  vars: ReadonlyMap<string, string> | null = null;
  /** a flow's user sending this request, or null */
  user: FlowUser | null = null;
  /** the response header a flow's step extracts (lower case), and its value once seen */
  wantHeader: string | null = null;
  header: string | null = null;
  /** what ended the request when it failed, and its kind: the phase keeps its reason (stats.ts) */
  failure: Error | null = null;
  failureKind = -1;

  constructor(
    private readonly group: ClientGroup,
    readonly index: number,
  ) {
    this.phase = group.phaseIndex;
    this.client = group.clientIndex;
  }

  begin(intended: number, template: number, needle: Buffer | null, keepBody: boolean): void {
    this.intended = intended;
    this.template = template;
    this.sent = NaN;
    this.firstByte = NaN;
    this.status = 0;
    this.bytes = 0;
    this.stWait = NaN;
    this.stProc = NaN;
    this.waitingSince = NaN;
    this.includes.begin(needle);
    this.keepBody = keepBody;
    if (keepBody) (this.body ??= new BodyPrefix()).begin();
    this.header = null;
    this.failure = null;
    this.active = true;
  }

  onConnect(abort?: (err?: Error) => void): void {
    // called as the request is written to a socket (again, if undici retries it); the fast path passes no abort
    this.sent = nowUs();
    this.abortRequest = abort ?? null;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true;
    this.firstByte = nowUs();
    this.status = statusCode;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      if (isServerTimingName(rawHeaders[i]!)) parseServerTiming(rawHeaders[i + 1]!, this);
      else if (this.wantHeader !== null && this.header === null && rawHeaders[i]!.toString('latin1').toLowerCase() === this.wantHeader) this.header = rawHeaders[i + 1]!.toString();
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.bytes += chunk.length;
    // nothing of the body is kept beyond a needle's length and the extract bound (issue 35)
    this.includes.feed(chunk);
    if (this.keepBody) this.body!.append(chunk);
    return true;
  }

  onComplete(): void {
    this.group.settle(this, CHECK_RESPONSE);
  }

  onError(err: Error): void {
    this.failure = err;
    this.failureKind = classifyError(err);
    this.group.settle(this, this.failureKind);
  }
}

export interface GroupOwner {
  readonly stats: PhaseStats;
  /** the phase's new connections to an https target (absent: not measured, e.g. the warm-up) */
  readonly connections?: ConnectionTimes;
  /** what of the phase crossed a request bound, for its note (absent: not told, e.g. the warm-up) */
  readonly crossed?: BoundsCrossed;
  groupFinished(g: ClientGroup): void;
}

export class ClientGroup implements Timed, GroupPort {
  private readonly clientOptions: Client.Options;
  /** undici connections: slot i's is clients[floor(i / streams)] (its own over HTTP/1.1, shared by `streams` slots over h2) */
  private readonly clients: (Client | undefined)[] = [];
  /** a slot is replaced when its request passes its deadline (expire): never hold one across that */
  private readonly slots: Slot[];
  private readonly free: Int32Array;
  private freeTop: number;
  inFlight = 0;
  readonly queue = new NumberRing();
  private readonly templates: CompiledTemplate[];
  private readonly picker: TemplatePicker;
  private readonly executor: ExecutorState;
  private readonly stats: PhaseStats;
  /** each request's deadline from its send (µs) */
  private readonly timeoutUs: number;
  private depth = 0;
  finished = false;
  abortKind = ABORT_NONE;
  private readonly scratch: RequestRecord;
  private readonly target: Target;
  /** prebuilt requests by template, when the fast path applies */
  private readonly h1: H1Request[] | null;
  /** what placeholders read: the phase's counter and rows (shared), this request's values */
  private readonly inputs: PhaseInputs;
  private readonly request: RequestInputs;
  private readonly dataPrng: Prng;
  /** a flow's users (journeys), or null: templates are picked by weight */
  private readonly flow: FlowUsers | null;
  /** while the executor hears of a flow's settled step: the pause after it (µs), else -1 */
  private stepThinkUs = -1;
  /** while the executor hears of a flow's settled step: its user, until sent again at once or idled */
  private settling: FlowUser | null = null;
  /** the phase's requests over a bound (shared by its groups) */
  private readonly crossed: BoundsCrossed;
  /** slots whose request was over MAX_REQUEST_BYTES, settled on the next turn */
  private overBound: Slot[] = [];

  constructor(
    readonly phaseIndex: number,
    readonly clientIndex: number,
    private readonly phase: Phase,
    readonly startUs: number,
    target: Target,
    private readonly scheduler: Scheduler,
    private readonly owner: GroupOwner,
    warm: readonly H1Connection[] = [],
    inputs: PhaseInputs = new PhaseInputs(null),
  ) {
    this.stats = owner.stats;
    this.timeoutUs = phase.timeoutMs * 1000;
    this.inputs = inputs;
    const columns = inputs.data?.columns ?? [];
    this.templates = compileTemplates(phase, columns);
    const phaseSeed = 'seed' in phase && typeof phase.seed === 'number' ? phase.seed : 0;
    const seed = (phaseSeed * 1000003 + phaseIndex * 7919 + clientIndex * 104729 + 1) >>> 0;
    // their own streams, so adding a placeholder changes neither the templates picked nor the arrivals
    this.request = { counter: 0, user: 0, row: null, vars: null, prng: new Prng(seed ^ 0x85ebca6b) };
    this.dataPrng = new Prng(seed ^ 0xc2b2ae35);
    this.picker = new TemplatePicker(
      phase.requests.map((r) => r.weight),
      new Prng(seed ^ 0x9e3779b9),
    );
    const module = executorOf(phase);
    const slots = phaseSlots(phase);
    this.executor = module.create(phase, { startUs, seed });
    this.slots = Array.from({ length: slots }, (_, i) => new Slot(this, i));
    this.free = new Int32Array(slots);
    for (let i = 0; i < slots; i++) this.free[i] = slots - 1 - i;
    this.freeTop = slots;
    this.clientOptions = {
      pipelining: 1,
      headersTimeout: phase.timeoutMs,
      bodyTimeout: phase.timeoutMs,
      connectTimeout: phase.timeoutMs,
      // over https, each new connection's connect and TLS handshake times go to the phase (connect-timing.ts)
      connect: targetConnect(target, phase.timeoutMs, owner.connections ?? null),
      ...protocolClientOptions(target),
    };
    this.target = target;
    this.crossed = owner.crossed ?? new BoundsCrossed();
    this.flow = isFlow(phase) ? new FlowUsers(phase.requests, clientIndex * slots, phaseThinkMs(phase) * 1000, this.crossed) : null;
    // a step reading a response header goes through undici: the fast path hands over Server-Timing only
    this.h1 = this.flow?.readsHeaders || target.protocol !== 'h1' ? null : compileH1(phase, target.baseUrl, columns);
    // connections opened before the schedule started go to the slots used first (the free stack pops 0, 1, ...)
    if (this.h1 !== null) for (let i = 0; i < warm.length && i < slots; i++) this.slots[i]!.h1 = warm[i]!;
    this.scratch = { phase: phaseIndex, client: clientIndex, intended: 0, sent: NaN, firstByte: NaN, status: 0, bytes: 0, stWait: NaN, stProc: NaN, template: 0 };
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

  /** A slot's undici connection: its own over HTTP/1.1; over h2 / h2c `streams` slots share one. */
  private connection(slot: number): Client {
    const k = Math.floor(slot / this.target.streams);
    return (this.clients[k] ??= this.newClient(k));
  }

  private newClient(k: number): Client {
    const client = new Client(this.target.baseUrl, this.clientOptions);
    // undici can wedge an h2 client whose session failed (a peer flooding PING or SETTINGS frames,
    // nodejs/node#63412): what is dispatched to it after is neither sent nor failed. So a client
    // whose session ended is replaced, never reused; what was still on it fails as a reset.
    if (this.target.protocol !== 'h1') client.on('disconnect', () => this.retire(k, client, SESSION_LOST));
    return client;
  }

  /** Drops connection k's client: its slots open a new one on their next request; requests still on it fail with `err`. */
  private retire(k: number, client: Client, err: Error): void {
    if (this.clients[k] !== client) return;
    this.clients[k] = undefined;
    const streams = this.target.streams;
    for (let i = k * streams; i < (k + 1) * streams && i < this.slots.length; i++) if (this.slots[i]!.conn === client) this.slots[i]!.conn = null;
    void client.destroy(err).catch(() => undefined);
  }

  /**
   * The deadline check (the phase's timer, run.ts): a request out for longer than timeoutMs since
   * its send fails as a timeout, whatever its connection is doing. The idle timers of h1.ts and
   * undici do not bound a response trickled a byte at a time or an endless body; this does.
   */
  expireOverdue(now: number): void {
    if (this.inFlight === 0 || this.finished) return;
    const before = now - this.timeoutUs;
    this.depth++;
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i]!;
      if (!s.active) continue;
      let from = s.sent;
      if (Number.isNaN(from)) {
        // not sent yet: its wait counts from the first check that saw it (no clock read per request)
        if (Number.isNaN(s.waitingSince)) s.waitingSince = now;
        from = s.waitingSince;
      }
      if (from < before) this.expire(s);
    }
    this.depth--;
    this.checkFinished();
  }

  /**
   * A request past its deadline: recorded as a timeout now, and its connection dropped. The slot
   * gets a new handler object first, so whatever the old connection still calls back (a destroyed
   * request's error comes a turn later, when the slot may be on its next request) reaches the old
   * one, which no longer listens.
   */
  private expire(old: Slot): void {
    this.slots[old.index] = new Slot(this, old.index);
    // over h2 a stream that was sent is reset and its session kept for the other streams; a request
    // never sent (queued at a client that stopped sending), or any over HTTP/1.1, takes its client with it
    const abort = this.target.protocol !== 'h1' && !Number.isNaN(old.sent) ? old.abortRequest : null;
    if (old.conn !== null && abort === null) this.retire(Math.floor(old.index / this.target.streams), old.conn, DEADLINE_ERROR);
    this.settle(old, CODE_TIMEOUT);
    old.h1?.destroy();
    try {
      abort?.(DEADLINE_ERROR);
    } catch {
      // undici resumes its queue inside abort and throws when the session is already gone; its disconnect retires the client
    }
  }

  freeSlots(): number {
    return this.freeTop;
  }

  thinkAfterUs(phaseUs: number): number {
    return this.stepThinkUs >= 0 ? this.stepThinkUs : phaseUs;
  }

  wake(atUs: number): void {
    this.scheduler.wake(atUs);
  }

  issue(intended: number): void {
    if (this.abortKind === ABORT_DATA) return;
    const user = this.flow === null ? null : this.takeUser(intended);
    const t = user === null ? this.picker.pick() : user.step;
    const tpl = this.templates[t]!;
    const variable = tpl.variable;
    if (variable !== null) {
      // before a slot is taken: a unique data file that ran out ends the group instead
      const request = this.request;
      request.counter = this.inputs.nextCounter();
      if (variable.readsData) {
        request.row = this.inputs.nextRow(this.dataPrng);
        if (request.row === null) return this.runOutOfData();
      }
    }
    const slot = this.slots[this.free[--this.freeTop]!]!;
    slot.begin(intended, t, tpl.bodyIncludes, user !== null && this.flow!.keepsBody[t]!);
    if (user !== null) {
      slot.user = user;
      slot.vars = user.vars;
      slot.wantHeader = this.flow!.header[t]!;
    }
    this.inFlight++;
    if (variable === null) {
      if (this.h1 !== null) (slot.h1 ??= new H1Connection(this.target, this.phase.timeoutMs)).dispatch(this.h1[t]!, slot);
      else (slot.conn ??= this.connection(slot.index)).dispatch(tpl.opts, slot);
      return;
    }
    this.request.user = user?.number ?? this.clientIndex * this.slots.length + slot.index + 1;
    this.request.vars = slot.vars;
    if (this.h1 !== null) {
      const built = slot.built;
      const prebuilt = this.h1[t]!;
      const bytes = prebuilt.variable!.build(this.request);
      if (bytes === null) return this.refuseOverBound(slot);
      built.bytes = bytes;
      built.head = prebuilt.head;
      (slot.h1 ??= new H1Connection(this.target, this.phase.timeoutMs)).dispatch(built, slot);
    } else {
      const parts = variable.parts(this.request);
      if (parts === null) return this.refuseOverBound(slot);
      (slot.conn ??= this.connection(slot.index)).dispatch({ ...tpl.opts, ...parts }, slot);
    }
  }

  /**
   * A request over MAX_REQUEST_BYTES as built (request-compile.ts) is not sent: an 'other' error of
   * that request, settled on a later turn (a loop of such requests cannot recurse through settle),
   * and counted for the phase's note.
   */
  private refuseOverBound(slot: Slot): void {
    this.crossed.requests++;
    this.overBound.push(slot);
    if (this.overBound.length === 1) setImmediate(this.settleOverBound);
  }

  private readonly settleOverBound = (): void => {
    const slots = this.overBound;
    this.overBound = [];
    for (const slot of slots) this.settle(slot, CODE_OTHER);
  };

  /** A flow's user for a request intended at `intended`: the one settling when the executor sends its next at once, else the idle one ready first. */
  private takeUser(intended: number): FlowUser {
    const settling = this.settling;
    if (settling === null) return this.flow!.take(intended);
    this.settling = null;
    return settling;
  }

  /** No row left in a unique data file: no more requests from this group; those in flight finish. */
  private runOutOfData(): void {
    this.abortKind = ABORT_DATA;
    this.executor.stop();
    this.queue.clear();
  }

  /** A request ended: a complete response (CHECK_RESPONSE) or an error code. */
  settle(slot: Slot, code: number): void {
    if (!slot.active) return;
    slot.active = false;
    const done = nowUs();
    if (code === CHECK_RESPONSE) code = this.checkResponse(slot);
    const user = slot.user;
    if (user !== null) {
      // before the executor hears of it: a user due again at once is idle by then
      slot.user = null;
      this.stepThinkUs = this.flow!.thinkUs[user.step]!;
      code = this.flow!.finish(user, code, slot, done);
      this.settling = user;
    }
    if (this.abortKind === ABORT_DEADLINE && code !== NO_ERROR) code = CODE_TIMEOUT;
    if (this.abortKind !== ABORT_CANCEL) this.stats.record(slot, done, code);
    if (slot.keepBody) slot.body!.release();
    this.free[this.freeTop++] = slot.index;
    this.inFlight--;
    if (this.abortKind === ABORT_NONE) {
      this.depth++;
      this.executor.settled(this, done, code === NO_ERROR);
      this.depth--;
    }
    this.stepThinkUs = -1;
    if (this.settling !== null) {
      this.flow!.idle(this.settling);
      this.settling = null;
    }
    this.checkFinished();
  }

  private checkResponse(slot: Slot): number {
    const tpl = this.templates[slot.template]!;
    const status = slot.status;
    if (tpl.expectStatus >= 0 ? status !== tpl.expectStatus : status >= 400) return status >= 400 ? ERROR_CODE.http : ERROR_CODE.body;
    if (!slot.includes.found) return ERROR_CODE.body;
    return NO_ERROR;
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
    if (kind === ABORT_DEADLINE && this.executor.queueOwed) {
      const done = nowUs();
      while (this.queue.length > 0) {
        this.scratch.intended = this.queue.shift();
        // the endpoint it would have been sent to, so endpoint counts add up to the phase's
        this.scratch.template = this.picker.pick();
        this.stats.record(this.scratch, done, CODE_TIMEOUT);
      }
    }
    this.queue.clear();
    if (this.inFlight > 0) {
      for (const s of this.slots) {
        if (s.conn !== null) void s.conn.destroy().catch(() => undefined);
        s.h1?.destroy();
      }
    }
    this.checkFinished();
  }

  private checkFinished(): void {
    // out of data, an executor still in its loop may have queued arrivals or left some pending: none are sent
    if (this.abortKind === ABORT_DATA) this.queue.clear();
    if (this.finished || this.depth > 0 || this.inFlight > 0 || this.queue.length > 0 || (this.abortKind === ABORT_NONE && this.executor.pending())) return;
    this.finished = true;
    this.scheduler.remove(this);
    for (const s of this.slots) {
      if (s.conn !== null) void s.conn.close().catch(() => undefined);
      s.h1?.close();
    }
    this.owner.groupFinished(this);
  }
}
