import type { BurstPhase, ClosedPhase, Executor, Phase, RampingUsersPhase, RatePhase, SequentialPhase } from './scenario.js';
import { kindRegistry, type KindRegistry } from './kind-registry.js';
import { enUsNumber } from './number-text.js';

// The one owner of what a phase IS, worked out from its fields: its default name, its planned
// length, the requests it is expected to make, when its arrivals end, when it ends at the latest
// (its deadline), its progress plan, its ramp and its one-line description. Every consumer asks
// here (driver worker, scenario plan and timeline, progress, k6 export, UI wording); no other file
// reads executor fields for these.
// Zod-free (types only from scenario.ts): the driver worker imports it.
//
// Answers where consumers used to disagree:
// - expectedRequests is null when the phase's size is not known ahead (it is bounded by time and
//   the server's speed: timed closed, ramping-users), never Infinity; a rate phase's is rounded.
// - one wording for every view: `100 → 500 req/s for 2 s (uniform)`, `64 users, 1,000 requests`.
//
// Adding an executor: its schema (scenario.ts), its entry below, its state machine
// (engine/driver/executors/<name>.ts). A test's toy is added in-process instead (engine/driver/test-support/toy-kinds.ts).

/** How progress is measured for a phase: requests done of planned, or load time done of planned. */
export type ProgressPlan = { kind: 'requests'; requests: number } | { kind: 'time'; durationMs: number };

/** The corners of a ramp (ms from the phase start), for drawing its slope. */
export interface PhaseRamp {
  unit: 'req/s' | 'users';
  points: { atMs: number; value: number }[];
}

/** How a description shows a field's value: a view may show several (a matrix varies it). */
export interface PhaseWords {
  /** a count or rate, `1,000` */
  n(field: string, value: number): string;
  /** a length in ms, `1.5 s` */
  ms(field: string, value: number): string;
}

/** The fields every phase has that the facts below read. */
export interface PhaseBase {
  executor: string;
  name?: string | undefined;
  clients: number;
  maxDurationMs: number;
  timeoutMs: number;
}

/** What one executor kind's phases are, from their fields. */
export interface PhaseKind<P extends PhaseBase = PhaseBase> {
  readonly executor: P['executor'];
  /** in-flight slots one client group needs */
  slots(p: P): number;
  /** how long the phase is planned to take (ms), null when only its request count bounds it */
  plannedMs(p: P): number | null;
  /** requests all its clients are expected to make, null when not known ahead */
  expectedRequests(p: P): number | null;
  /** open loop: when arrivals stop (ms from the phase start), null when it has no such end */
  arrivalsEndMs(p: P): number | null;
  /** when it stops sending new requests (ms from the phase start), null when only its count ends it */
  sendsUntilMs(p: P): number | null;
  /** what progress counts (all client groups) */
  plan(p: P): ProgressPlan;
  /** think time between a user's requests (ms), 0 when the executor has none */
  thinkMs(p: P): number;
  /** the ramp's corners, undefined for a constant load */
  ramp(p: P): PhaseRamp | undefined;
  /** the load in words, without the client groups (describePhase adds them) */
  describe(p: P, w: PhaseWords): string;
  /**
   * Keep-alive connections a client group opens before the phase starts, given the driver's warm
   * window (s); absent: none. A rate phase: its first warmS of arrivals with no reuse; a closed phase
   * with `preconnect`: every user's.
   */
  openAhead?(p: P, warmS: number): number;
}

const plural = (value: number, text: string, one: string, many: string) => `${text} ${value === 1 ? one : many}`;
const totalMs = (p: RampingUsersPhase) => p.stages.reduce((sum, s) => sum + s.durationMs, 0);
const think = (p: { thinkMs: number }, w: PhaseWords) => (p.thinkMs > 0 ? `, ${w.n('thinkMs', p.thinkMs)} ms think` : '');

/** A phase bounded by its count of requests, sent with no think time and no ramp (burst, sequential). */
const counted = {
  plannedMs: () => null,
  expectedRequests: (p: { count: number; clients: number }) => p.count * p.clients,
  arrivalsEndMs: () => null,
  sendsUntilMs: () => null,
  plan: (p: { count: number; clients: number }) => ({ kind: 'requests', requests: p.count * p.clients }) as const,
  thinkMs: () => 0,
  ramp: () => undefined,
};

const burst: PhaseKind<BurstPhase> = {
  executor: 'burst',
  slots: (p) => p.count,
  ...counted,
  describe: (p, w) => `${plural(p.count, w.n('count', p.count), 'request', 'requests')} at once`,
};

const closed: PhaseKind<ClosedPhase> = {
  executor: 'closed',
  slots: (p) => p.users,
  openAhead: (p) => (p.preconnect === true && p.keepAlive ? p.users : 0),
  plannedMs: (p) => (p.count === undefined ? (p.durationMs ?? null) : null),
  expectedRequests: (p) => (p.count === undefined ? null : p.count * p.clients),
  arrivalsEndMs: () => null,
  // with a count too, users stop at durationMs whatever they reached ("up to")
  sendsUntilMs: (p) => p.durationMs ?? null,
  plan: (p) => (p.count !== undefined ? { kind: 'requests', requests: p.count * p.clients } : { kind: 'time', durationMs: p.durationMs ?? 0 }),
  thinkMs: (p) => p.thinkMs,
  ramp: () => undefined,
  describe: (p, w) => {
    const size = [
      p.count !== undefined ? plural(p.count, w.n('count', p.count), 'request', 'requests') : '',
      p.durationMs !== undefined ? `${p.count !== undefined ? 'up to' : 'for'} ${w.ms('durationMs', p.durationMs)}` : '',
    ].filter(Boolean);
    return [plural(p.users, w.n('users', p.users), 'user', 'users'), ...size].join(', ') + think(p, w);
  },
};

const rate: PhaseKind<RatePhase> = {
  executor: 'rate',
  slots: (p) => p.maxInFlight,
  openAhead: (p, warmS) => Math.min(p.maxInFlight, Math.ceil(Math.max(p.rate, p.rampTo ?? 0) * warmS)),
  plannedMs: (p) => p.durationMs,
  // the arrivals' mean rate over the phase (a linear ramp), rounded: a count of requests
  expectedRequests: (p) => Math.round((((p.rate + (p.rampTo ?? p.rate)) / 2) * p.durationMs * p.clients) / 1000),
  arrivalsEndMs: (p) => p.durationMs,
  sendsUntilMs: (p) => p.durationMs,
  plan: (p) => ({ kind: 'time', durationMs: p.durationMs }),
  thinkMs: () => 0,
  ramp: (p) => (p.rampTo !== undefined && p.rampTo !== p.rate ? { unit: 'req/s', points: [{ atMs: 0, value: p.rate }, { atMs: p.durationMs, value: p.rampTo }] } : undefined),
  describe: (p, w) => `${w.n('rate', p.rate)}${p.rampTo !== undefined ? ` → ${w.n('rampTo', p.rampTo)}` : ''} req/s for ${w.ms('durationMs', p.durationMs)} (${p.arrivals})`,
};

const sequential: PhaseKind<SequentialPhase> = {
  executor: 'sequential',
  slots: () => 1,
  ...counted,
  describe: (p, w) => `${plural(p.count, w.n('count', p.count), 'request', 'requests')} one after another`,
};

const rampingUsers: PhaseKind<RampingUsersPhase> = {
  executor: 'ramping-users',
  slots: (p) => Math.max(1, p.startUsers, ...p.stages.map((s) => s.target)),
  plannedMs: totalMs,
  // users follow the ramp, each as fast as the server answers: the count is not known ahead
  expectedRequests: () => null,
  arrivalsEndMs: () => null,
  sendsUntilMs: totalMs,
  plan: (p) => ({ kind: 'time', durationMs: totalMs(p) }),
  thinkMs: (p) => p.thinkMs,
  ramp: (p) => {
    let at = 0;
    return { unit: 'users', points: [{ atMs: 0, value: p.startUsers }, ...p.stages.map((s) => ({ atMs: (at += s.durationMs), value: s.target }))] };
  },
  describe: (p, w) => `users ${[w.n('startUsers', p.startUsers), ...p.stages.map((s) => `${w.n('target', s.target)} over ${w.ms('durationMs', s.durationMs)}`)].join(' → ')}${think(p, w)}`,
};

const BUILT_IN: { readonly [K in Executor]: PhaseKind<Extract<Phase, { executor: K }>> } = { burst, closed, rate, sequential, 'ramping-users': rampingUsers };
/** Every executor kind's facts by name: the built-in ones above (a test may add a toy in-process). */
export const phaseKinds: KindRegistry = kindRegistry(BUILT_IN);

/** The facts of a phase's executor kind. */
export function phaseKind<P extends PhaseBase>(p: P): PhaseKind<P> {
  return phaseKinds.get(p.executor) as PhaseKind<P>;
}

/** The name a phase goes by: its own, else `phase <n>` (index from 0). */
export const defaultPhaseName = (index: number): string => `phase ${index + 1}`;
export const phaseName = (p: { name?: string | undefined }, index: number): string => p.name ?? defaultPhaseName(index);

const sec = (ms: number): string => (ms < 1000 ? `${ms} ms` : ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
/** Plain words: one value per field. */
export const PLAIN_WORDS: PhaseWords = { n: (_f, v) => enUsNumber(v), ms: (_f, v) => sec(v) };

/** A phase's load in one line, client groups included: `100 → 500 req/s for 2 s (uniform) × 2 clients`. */
export function describePhaseLoad(p: PhaseBase, w: PhaseWords = PLAIN_WORDS): string {
  return `${phaseKind(p).describe(p, w)}${p.clients > 1 ? ` × ${w.n('clients', p.clients)} clients` : ''}`;
}

/** Length of a phase when its fields say it (ms), else null (it ends when its requests do). */
export const plannedMs = (p: PhaseBase): number | null => phaseKind(p).plannedMs(p);
export const expectedRequests = (p: PhaseBase): number | null => phaseKind(p).expectedRequests(p);
export const arrivalsEndMs = (p: PhaseBase): number | null => phaseKind(p).arrivalsEndMs(p);
/**
 * When a phase ends at the latest (ms from its start): the last request it sends has timeoutMs to
 * end (every request's deadline, from its send), so a phase that stops sending at a time ends
 * timeoutMs after it; one bounded by its count alone (burst, sequential) ends when its requests
 * have, each within its own deadline. maxDurationMs caps both.
 */
export function phaseDeadlineMs(p: PhaseBase): number {
  const sendsUntil = phaseKind(p).sendsUntilMs(p);
  return sendsUntil === null ? p.maxDurationMs : Math.min(p.maxDurationMs, sendsUntil + p.timeoutMs);
}
/** Open loop: arrivals on a schedule, whatever the answers take (they end at arrivalsEndMs). */
export const isOpenLoop = (p: PhaseBase): boolean => arrivalsEndMs(p) !== null;
export const progressPlan = (p: PhaseBase): ProgressPlan => phaseKind(p).plan(p);
export const phaseSlots = (p: PhaseBase): number => phaseKind(p).slots(p);
export const phaseOpenAhead = (p: PhaseBase, warmS: number): number => phaseKind(p).openAhead?.(p, warmS) ?? 0;
export const phaseThinkMs = (p: PhaseBase): number => phaseKind(p).thinkMs(p);
export const phaseRamp = (p: PhaseBase): PhaseRamp | undefined => phaseKind(p).ramp(p);

/** A phase's planned users over time, all client groups together; undefined unless its executor ramps users (ramping-users). */
export function plannedUsers(p: PhaseBase): PhaseRamp | undefined {
  const ramp = phaseRamp(p);
  if (ramp?.unit !== 'users') return undefined;
  return { unit: 'users', points: ramp.points.map((pt) => ({ atMs: pt.atMs, value: pt.value * p.clients })) };
}

/** A ramp's value (req/s or users) at a time from the phase start: linear between its corners, held after the last. */
export function rampValueAt(ramp: PhaseRamp, atMs: number): number {
  const pts = ramp.points;
  if (pts.length === 0) return 0;
  if (atMs <= pts[0]!.atMs) return pts[0]!.value;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1]!;
    const b = pts[i]!;
    if (atMs <= b.atMs) return b.atMs === a.atMs ? b.value : a.value + ((b.value - a.value) * (atMs - a.atMs)) / (b.atMs - a.atMs);
  }
  return pts[pts.length - 1]!.value;
}
