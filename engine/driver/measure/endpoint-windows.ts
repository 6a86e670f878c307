import type { EndpointWindow } from '../../../contract/results.js';
import { LIVE_ENDPOINTS, otherEndpointsName } from '../../../contract/live-endpoints.js';
import { templateName } from '../../../contract/template-name.js';
import { WindowAccumulator } from './accumulators.js';

// A phase's live windows per endpoint (issue 36: the live latency chart drew a journey's steps as one
// line). The folding lives here only (the bound and the folded line's name: contract/live-endpoints.ts):
// a phase of up to LIVE_ENDPOINTS templates gets a line per template; a larger one keeps
// LIVE_ENDPOINTS - 1 lines for its busiest templates and folds the rest into one. "Busiest" is by
// weight, the share of requests each template is planned to get (a flow's steps weigh the same, so
// they keep their order): it is known before the first request, so a template never moves between
// its own line and "other" during a run, and the worker keeps at most LIVE_ENDPOINTS window
// accumulators per phase. A phase of one template has no endpoint windows (its window is its
// endpoint's) and pays nothing per request. Zod-free (type imports only): the driver worker loads it.

interface Template {
  readonly name?: string | undefined;
  readonly method?: string | undefined;
  readonly path: string;
  readonly weight: number;
}

/** Which line each template's requests go to (slotOf, by template index) and the lines' names, in template order. */
export function liveEndpointSlots(templates: readonly Template[], max: number = LIVE_ENDPOINTS): { names: string[]; slotOf: Int32Array } {
  const slotOf = new Int32Array(templates.length);
  if (templates.length <= max) {
    slotOf.forEach((_, i) => (slotOf[i] = i));
    return { names: templates.map(templateName), slotOf };
  }
  // the max - 1 heaviest keep their own line (ties: the earlier template), listed in template order
  const ranked = templates.map((_, i) => i).sort((a, b) => templates[b]!.weight - templates[a]!.weight || a - b);
  const own = ranked.slice(0, max - 1).sort((a, b) => a - b);
  slotOf.fill(max - 1);
  own.forEach((t, slot) => (slotOf[t] = slot));
  return { names: [...own.map((t) => templateName(templates[t]!)), otherEndpointsName(templates.length - own.length)], slotOf };
}

export class EndpointWindows {
  private readonly names: string[] = [];
  private readonly slotOf: Int32Array = new Int32Array(0);
  private readonly accs: WindowAccumulator[] = [];

  constructor(templates: readonly Template[] = []) {
    if (templates.length < 2) return;
    const slots = liveEndpointSlots(templates);
    this.names = slots.names;
    this.slotOf = slots.slotOf;
    for (let i = 0; i < this.names.length; i++) this.accs.push(new WindowAccumulator());
  }

  /** One finished request of template `template` (as WindowAccumulator.record takes it). */
  record(template: number, code: number, totalUs: number, procUs: number, ttfbUs: number, transferUs: number): void {
    if (this.accs.length === 0) return;
    this.accs[this.slotOf[template] ?? this.accs.length - 1]!.record(code, totalUs, procUs, ttfbUs, transferUs);
  }

  /** Each line's share of the window ending now (undefined for a phase of one template); starts the next. */
  take(): EndpointWindow[] | undefined {
    if (this.accs.length === 0) return undefined;
    return this.accs.map((acc, i) => {
      const { totalBuckets: _buckets, ...w } = acc.take();
      return { name: this.names[i]!, ...w };
    });
  }
}
