import type { FlowResponse, FlowUser } from './requests/flow-users.js';
import { BodyIncludes } from './requests/body-includes.js';
import { BodyPrefix } from './requests/body-prefix.js';
import { nowUs } from './clock.js';
import { classifyError } from './measure/errors.js';
import { isServerTimingName, parseServerTiming } from './measure/server-timing.js';
import type { RequestRecord } from './measure/stats.js';
import type { MessageHandler } from './transport/index.js';
import type { CheckedSlot } from './measure/response-checks.js';

const NO_HEADERS: readonly string[] = [];

// A slot is the handler of one request at a time, reused for the next: no per-request closures or
// objects beyond what the connection itself allocates. It stamps the request's times as its
// connection reports them, and hands the ending to its group (group.ts settle).

/** settle()'s code for a complete response, still to be checked against the template's expect */
export const CHECK_RESPONSE = -2;

/** Where a stream's messages are counted as they come (measure/stats.ts PhaseStats). */
export interface MessageSink {
  message(template: number, bytes: number, ttfeUs: number, gapUs: number, rttUs: number): void;
  messageSent(template: number): void;
}

/** What a slot reports to. */
export interface SlotOwner {
  readonly phaseIndex: number;
  readonly clientIndex: number;
  /** where a stream's messages are counted as they come (issue 41) */
  readonly stats: MessageSink;
  /** a request ended: a complete response (CHECK_RESPONSE) or an error code */
  settle(slot: Slot, code: number): void;
}

export class Slot implements MessageHandler, RequestRecord, FlowResponse, CheckedSlot {
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
  /** the request's trace seq (contract/trace-context.ts), NaN when its phase does not trace */
  seq = NaN;
  active = false;
  /** not yet sent (connecting, or queued at an h2 client): when the deadline check first saw it (µs) */
  waitingSince = NaN;
  /** the reset of the request it sent last, where its connection has one (an h2 stream) */
  abortRequest: ((err?: Error) => void) | null = null;
  /** expect.bodyIncludes, searched as the body streams */
  readonly includes = new BodyIncludes();
  /** the body kept for a flow step's extract (bounded), made on the slot's first such step */
  body: BodyPrefix | null = null;
  keepBody = false;
  /** what {{vars.<name>}} reads for this slot's requests (journeys give each user theirs), or null */
  vars: ReadonlyMap<string, string> | null = null;
  /** a flow's user sending this request, or null */
  user: FlowUser | null = null;
  /** the response header a flow's step extracts (lower case), and its value once seen */
  wantHeader: string | null = null;
  header: string | null = null;
  /** the response headers the request's checks read (lower case), and their values once seen (null: absent) */
  checkHeaders: readonly string[] = NO_HEADERS;
  readonly checkValues: (string | null)[] = [];
  /** what ended the request when it failed, and its kind: the phase keeps its reason (stats.ts) */
  failure: Error | null = null;
  failureKind = -1;
  /** a stream (issue 41: its transport says so as it opens it), its messages so far and when the last came (µs, NaN before the first) */
  stream = false;
  messages = 0;
  lastMessage = NaN;

  constructor(
    private readonly owner: SlotOwner,
    readonly index: number,
  ) {
    this.phase = owner.phaseIndex;
    this.client = owner.clientIndex;
  }

  /** keepBody: for a flow step's extract or the request's checks; checkHeaders: the headers its checks read (none: NO_HEADERS) */
  begin(intended: number, template: number, needle: Buffer | null, keepBody: boolean, seq: number, checkHeaders: readonly string[] = NO_HEADERS): void {
    this.intended = intended;
    this.template = template;
    this.seq = seq;
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
    this.checkHeaders = checkHeaders;
    if (checkHeaders.length > 0) {
      this.checkValues.length = checkHeaders.length;
      this.checkValues.fill(null);
    }
    this.failure = null;
    this.stream = false;
    this.messages = 0;
    this.lastMessage = NaN;
    this.active = true;
  }

  /** the request is a flow user's step: its variables, and the response header it extracts */
  step(user: FlowUser, wantHeader: string | null): void {
    this.user = user;
    this.vars = user.vars;
    this.wantHeader = wantHeader;
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
    const checked = this.checkHeaders;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      if (isServerTimingName(rawHeaders[i]!)) parseServerTiming(rawHeaders[i + 1]!, this);
      else if (this.wantHeader !== null && this.header === null && rawHeaders[i]!.toString('latin1').toLowerCase() === this.wantHeader) this.header = rawHeaders[i + 1]!.toString();
      if (checked.length > 0) {
        // the first of each name a check reads (undici's pairs: the parser has bounded each header)
        const at = checked.indexOf(rawHeaders[i]!.toString('latin1').toLowerCase());
        if (at >= 0 && this.checkValues[at] === null) this.checkValues[at] = rawHeaders[i + 1]!.toString();
      }
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

  onMessage(bytes: number, rttUs: number): void {
    // a message after its stream's deadline is no longer its (the slot was renewed, this one is done)
    if (!this.active) return;
    const now = nowUs();
    // coordinated omission free: the first counts from the intended start, as total does
    const first = this.messages === 0;
    this.owner.stats.message(this.template, bytes, first ? now - this.intended : NaN, first ? NaN : now - this.lastMessage, rttUs);
    this.messages++;
    this.lastMessage = now;
  }

  onMessageSent(): void {
    if (this.active) this.owner.stats.messageSent(this.template);
  }

  onComplete(): void {
    this.owner.settle(this, CHECK_RESPONSE);
  }

  onError(err: Error): void {
    this.failure = err;
    this.failureKind = classifyError(err);
    this.owner.settle(this, this.failureKind);
  }
}
