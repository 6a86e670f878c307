import type { PhaseResult } from '../../../contract/results.js';
import { errorCode, type HistogramSet } from '../../../contract/measurement.js';
import { PhaseAccumulator } from '../../driver/measure/accumulators.js';
import { EndpointAccumulators, phaseWithEndpoints } from '../../driver/measure/endpoint-accumulators.js';
import { MAX_ENDPOINTS, OTHER_ENDPOINT } from './import-limits.js';
import { EndpointChecks } from './k6-checks.js';
import { InstanceAccs } from './instance-facts.js';
import type { K6Dropped, K6Request, PhaseRef } from './k6-request.js';
import type { K6StreamPoint } from './k6-stream-point.js';

// Per server run (a cell and server), per phase: the native driver's phase accumulator
// (engine/driver/measure/accumulators.ts), filled from k6's points. Memory is per phase, not per request.
// Requests k6 made are in the latency histograms as the driver's are (all but refusals); k6's
// dropped iterations are requests never sent: counted, and as timeouts among the errors (the native
// driver records arrivals still unsent at a deadline the same way), never in a latency histogram.
// Lag (sent - intended) is not measured by k6, so its histogram stays empty.
// Endpoints are k6's `name` tag (a Loadscope script tags each request with its name; k6's default is
// the URL): each name gets the same accumulator as the phase. A foreign script's URLs with ids in
// them would make an endpoint per id, so past MAX_ENDPOINTS names a phase's further names share one.

export { OTHER_ENDPOINT };

const TIMEOUT = errorCode('timeout');

export class PhaseAcc {
  readonly acc = new PhaseAccumulator();
  readonly endpoints = new EndpointAccumulators();
  /** its endpoints' checks, from k6's `checks` points */
  readonly checks = new EndpointChecks();
  /** each name tag seen, by the endpoint it counts under (itself, or OTHER_ENDPOINT past the cap) */
  private readonly endpointOf = new Map<string, string>();
  private readonly endpointIdx = new Map<string, number>();
  firstStartUs = Infinity;
  lastEndUs = -Infinity;

  constructor(
    readonly key: string,
    public ref: PhaseRef,
  ) {}

  get count(): number {
    return this.acc.count;
  }

  /** k6's dropped iterations: requests never sent */
  get dropped(): number {
    return this.acc.unsent;
  }

  add(r: K6Request): void {
    const totalUs = r.totalMs * 1000;
    this.firstStartUs = Math.min(this.firstStartUs, r.endUs - totalUs);
    this.lastEndUs = Math.max(this.lastEndUs, r.endUs);
    const code = errorCode(r.error);
    const procUs = r.procMs === null ? NaN : r.procMs * 1000;
    const serverWaitUs = r.serverWaitMs === null ? NaN : r.serverWaitMs * 1000;
    const endpoint = r.endpoint === null ? null : this.endpoints.at(this.endpoint(r.endpoint));
    // a stream's end, as the native driver counts it before its request (measure/stats.ts)
    if (r.stream != null) {
      const openGapUs = r.stream.openGapMs === null ? NaN : r.stream.openGapMs * 1000;
      for (const a of endpoint === null ? [this.acc] : [this.acc, endpoint]) {
        a.stream.ended(openGapUs);
        a.stream.sent += r.stream.sent;
      }
    }
    this.acc.record(code, totalUs, procUs, serverWaitUs, NaN, NaN, NaN);
    endpoint?.record(code, totalUs, procUs, serverWaitUs, NaN, NaN, NaN);
  }

  /** A stream's message, as the native driver records one (measure/stats.ts message()). */
  addStream(m: K6StreamPoint): void {
    const endpoint = m.endpoint === null ? null : this.endpoints.at(this.endpoint(m.endpoint));
    const us = m.ms * 1000;
    const rttUs = m.rttMs === null ? NaN : m.rttMs * 1000;
    this.acc.stream.message(m.bytes, m.figure === 'ttfe' ? us : NaN, m.figure === 'gap' ? us : NaN, rttUs);
    endpoint?.stream.message(m.bytes, m.figure === 'ttfe' ? us : NaN, m.figure === 'gap' ? us : NaN, rttUs);
  }

  /** The index of an endpoint by name (its request rows' templateIdx), added when new. */
  endpoint(name: string): number {
    let i = this.endpointIdx.get(name);
    if (i === undefined) {
      const counted = this.endpointOf.size < MAX_ENDPOINTS ? name : OTHER_ENDPOINT;
      this.endpointOf.set(name, counted);
      i = this.endpoints.indexOf(counted);
      this.endpointIdx.set(name, i);
    }
    return i;
  }

  /** The scenario's template names first, each at its template's index (before any row is written). */
  orderEndpoints(names: readonly string[]): void {
    // points named otherwise (a script that is not this scenario's) keep their own order
    if (![...this.endpointOf.values()].some((n) => names.includes(n))) return;
    this.endpoints.order(names);
    for (const [name, counted] of this.endpointOf) this.endpointIdx.set(name, this.endpoints.indexOf(counted));
  }

  addDropped(d: K6Dropped): void {
    this.acc.recordUnsent(d.count, TIMEOUT);
  }

  result(index: number, executor: string, clients: number, t0Us: number): { result: PhaseResult; histograms: HistogramSet } {
    const start = Number.isFinite(this.firstStartUs) ? this.firstStartUs : t0Us;
    const durationMs = Number.isFinite(this.lastEndUs) ? Math.max(0, this.lastEndUs - start) / 1000 : 0;
    const out = phaseWithEndpoints(this.acc, this.endpoints, { index, name: this.ref.name, executor, clients, startedMs: (start - t0Us) / 1000, durationMs });
    const endpoints = out.result.endpoints?.map((e) => {
      const checks = this.checks.of(e.name);
      return checks === undefined ? e : { ...e, checks };
    });
    return endpoints === undefined ? out : { ...out, result: { ...out.result, endpoints } };
  }
}

/** One server run's phases, keyed by phase index (or name for foreign scripts). */
export class TargetAcc {
  readonly phases = new Map<string, PhaseAcc>();
  /** where its requests came from (see collect.ts); null while it has only dropped iterations */
  source: K6Request['source'] | null = null;
  /** who sent its requests, where several k6 processes did (instance-facts.ts) */
  readonly instances = new InstanceAccs();
  firstStartUs = Infinity;
  lastEndUs = -Infinity;

  constructor(
    readonly cell: number,
    readonly server: string,
  ) {}

  phase(ref: PhaseRef): PhaseAcc {
    const key = ref.index === null ? `name:${ref.name}` : `idx:${ref.index}`;
    let acc = this.phases.get(key);
    if (!acc) this.phases.set(key, (acc = new PhaseAcc(key, ref)));
    // whichever point came first, the phase is named by its phase tag where any point carries one
    else if (ref.tagged && !acc.ref.tagged) acc.ref = ref;
    return acc;
  }

  /** `instance`: the k6 process that sent it (its tag, or its file's index), null when not known */
  add(r: K6Request, instance: number | null = r.instance): void {
    this.source ??= r.source;
    if (instance !== null) this.instances.add(instance, r);
    this.phase(r.phase).add(r);
    this.firstStartUs = Math.min(this.firstStartUs, r.endUs - r.totalMs * 1000);
    this.lastEndUs = Math.max(this.lastEndUs, r.endUs);
  }

  addStream(m: K6StreamPoint): void {
    this.phase(m.phase).addStream(m);
  }

  /** Phases in scenario order: by index, then foreign ones in the order they were first seen. */
  ordered(): PhaseAcc[] {
    const all = [...this.phases.values()];
    const indexed = all.filter((p) => p.ref.index !== null).sort((a, b) => a.ref.index! - b.ref.index!);
    return [...indexed, ...all.filter((p) => p.ref.index === null)];
  }
}
