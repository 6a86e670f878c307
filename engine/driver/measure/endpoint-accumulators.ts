import type { HistogramSet } from '../../../contract/measurement.js';
import type { EndpointResult, PhaseResult } from '../../../contract/results.js';
import { PhaseAccumulator, type PhaseMeta } from './accumulators.js';
import type { CheckCounts } from './check-counts.js';

// A phase's endpoints (its request templates, by name) measured beside the phase: one
// PhaseAccumulator each, the same code as the phase's own, so an endpoint's figures mean exactly
// what the phase's do. A phase of one template has one endpoint whose figures ARE the phase's, so
// it gets no accumulator of its own and pays nothing per request (the common case stays as fast as
// before); with two or more, each request is recorded twice (phase and endpoint). Zod-free: the
// driver worker loads it.

/** An endpoint's result from figures made for it (or, for a phase's only endpoint, the phase's own). */
export function endpointResult(name: string, index: number, figures: PhaseResult): EndpointResult {
  const { executor: _executor, clients: _clients, startedMs: _startedMs, durationMs: _durationMs, endpoints: _endpoints, ...measured } = figures;
  return { ...measured, name, index };
}

export class EndpointAccumulators {
  private readonly names: string[] = [];
  private readonly accs: PhaseAccumulator[] = [];

  /**
   * names: the phase's endpoint names in template order (fixed, as the native driver knows them);
   * none for a source that finds them as it reads (k6's `name` tag: see indexOf).
   */
  constructor(names: readonly string[] = []) {
    this.names.push(...names);
    if (names.length > 1) for (let i = 0; i < names.length; i++) this.accs.push(new PhaseAccumulator());
  }

  /** Endpoint i's accumulator; null when the phase has one endpoint (the phase's figures are its). */
  at(i: number): PhaseAccumulator | null {
    return this.accs.length === 0 ? null : this.accs[i]!;
  }

  /** An endpoint's index by name, adding it (with an accumulator of its own) when new. */
  indexOf(name: string): number {
    let i = this.names.indexOf(name);
    if (i < 0) {
      i = this.names.push(name) - 1;
      this.accs.push(new PhaseAccumulator());
    }
    return i;
  }

  /**
   * Puts these names first, in this order (a source that found its names as it read them, given the
   * scenario's templates: each endpoint then has its template's index, a template that got no
   * request an empty accumulator); other names follow as they came. Before any index is handed out.
   */
  order(names: readonly string[]): void {
    const byName = new Map(this.names.map((n, i) => [n, this.accs[i]!]));
    const rest = this.names.filter((n) => !names.includes(n));
    this.names.length = 0;
    this.accs.length = 0;
    for (const n of [...names, ...rest]) {
      this.names.push(n);
      this.accs.push(byName.get(n) ?? new PhaseAccumulator());
    }
  }

  /** Every endpoint's result, in template order; the phase's own result stands for a single endpoint. */
  results(meta: PhaseMeta, phase: PhaseResult): EndpointResult[] {
    if (this.accs.length === 0) return this.names.length === 1 ? [endpointResult(this.names[0]!, 0, phase)] : [];
    return this.accs.map((acc, i) => endpointResult(this.names[i]!, i, acc.figures(meta)));
  }
}

/** A phase's result with its endpoints, from its phase accumulator and its endpoints' accumulators (each with its checks as counted). */
export function phaseWithEndpoints(phase: PhaseAccumulator, endpoints: EndpointAccumulators, meta: PhaseMeta, checks?: CheckCounts): { result: PhaseResult; histograms: HistogramSet } {
  const out = phase.result(meta);
  const withChecks = (e: EndpointResult): EndpointResult => {
    const counted = checks?.result(e.index);
    return counted === undefined ? e : { ...e, checks: counted };
  };
  return { result: { ...out.result, endpoints: endpoints.results(meta, out.result).map(withChecks) }, histograms: out.histograms };
}
