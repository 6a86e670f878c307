import type { CheckCount } from '../../../contract/results.js';

// A phase's checks counted under load (issue 39): for each endpoint (template) and each of its
// checks, the responses that passed and failed it. Plain number arrays, one row per template, so a
// response costs an increment per check; the names are the checks' own (contract/checks.ts), kept
// with the endpoint's result. Zod-free: the driver worker loads it.

export class CheckCounts {
  private readonly passes: number[][];
  private readonly fails: number[][];

  /** names: each template's check names, in template order ([] where it has none) */
  constructor(private readonly names: readonly (readonly string[])[] = []) {
    this.passes = names.map((n) => n.map(() => 0));
    this.fails = names.map((n) => n.map(() => 0));
  }

  /** One response of `template`: check i passed when passed[i]. */
  record(template: number, passed: readonly boolean[]): void {
    const p = this.passes[template];
    const f = this.fails[template];
    if (p === undefined || f === undefined) return;
    for (let i = 0; i < p.length; i++) {
      if (passed[i]) p[i]!++;
      else f[i]!++;
    }
  }

  /** A template's checks as counted; undefined when it has none. */
  result(template: number): CheckCount[] | undefined {
    const names = this.names[template];
    if (names === undefined || names.length === 0) return undefined;
    return names.map((name, i) => ({ name, passes: this.passes[template]![i]!, fails: this.fails[template]![i]! }));
  }
}
