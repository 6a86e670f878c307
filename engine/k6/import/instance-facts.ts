import type { InstanceFacts } from '../../../contract/instances.js';
import { MAX_ENDPOINTS, OTHER_ENDPOINT as OTHER } from './import-limits.js';
import type { K6Request } from './k6-request.js';

// Who sent a server run's requests, when several k6 processes did (issue 40): per instance, counts
// and its first and last request, nothing per request. The figures themselves are merged elsewhere
// (every instance's points go into the same phase accumulator: k6-accumulator.ts); these are only
// the instance dimension stored beside them. Bounded: instances by the ls_instance tag's range
// (k6-request.ts), endpoints per instance as a phase's (past MAX_ENDPOINTS names share one).

class InstanceAcc {
  requests = 0;
  errors = 0;
  dropped = 0;
  firstStartUs = Infinity;
  lastEndUs = -Infinity;
  readonly endpoints = new Map<string, number>();

  add(r: K6Request): void {
    this.requests++;
    if (r.error !== null) this.errors++;
    this.firstStartUs = Math.min(this.firstStartUs, r.endUs - r.totalMs * 1000);
    this.lastEndUs = Math.max(this.lastEndUs, r.endUs);
    if (r.endpoint === null) return;
    const name = this.endpoints.has(r.endpoint) || this.endpoints.size < MAX_ENDPOINTS ? r.endpoint : OTHER;
    this.endpoints.set(name, (this.endpoints.get(name) ?? 0) + 1);
  }
}

export class InstanceAccs {
  private readonly byInstance = new Map<number, InstanceAcc>();

  private at(instance: number): InstanceAcc {
    let acc = this.byInstance.get(instance);
    if (!acc) this.byInstance.set(instance, (acc = new InstanceAcc()));
    return acc;
  }

  add(instance: number, r: K6Request): void {
    this.at(instance).add(r);
  }

  addDropped(instance: number, count: number): void {
    this.at(instance).dropped += count;
  }

  /** Another server run's dropped iterations (collect.ts keeps them apart until the end). */
  takeDropped(other: InstanceAccs): void {
    for (const [i, acc] of other.byInstance) if (acc.dropped > 0) this.addDropped(i, acc.dropped);
  }

  get size(): number {
    return this.byInstance.size;
  }

  /**
   * The stored facts, by instance; times in ms from `t0Us`; `cpuOf` where the instance's process was
   * watched; `count`: instances 0..count-1 all listed, one that sent nothing with zeros.
   */
  facts(t0Us: number, cpuOf: (instance: number) => number | null = () => null, count = 0): InstanceFacts[] {
    for (let i = 0; i < count; i++) this.at(i);
    const ms = (us: number) => (Number.isFinite(us) ? Math.round((us - t0Us) / 10) / 100 : null);
    return [...this.byInstance.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([instance, a]) => ({
        instance,
        requests: a.requests,
        errors: a.errors,
        dropped: a.dropped,
        firstMs: ms(a.firstStartUs),
        lastMs: ms(a.lastEndUs),
        cpuPercent: cpuOf(instance),
        endpoints: [...a.endpoints.entries()].map(([name, count]) => ({ name, count })),
      }));
  }
}
