import { randomBytes } from 'node:crypto';
import type { Scenario } from '../../contract/scenario.js';

// A server run's trace prefix (contract/trace-context.ts): 64 random bits, chosen when its target
// row is made and stored with it, so every trace id its requests carry is rebuilt from the row's seq.

/** 16 hex digits for a server run whose scenario has a phase with traceparent; undefined for one without. */
export function tracePrefixFor(scenario: Scenario): string | undefined {
  if (!scenario.phases.some((p) => p.traceparent === true)) return undefined;
  const prefix = randomBytes(8).toString('hex');
  // all zeros is the spec's invalid trace id; its seq half is never 0, but the prefix alone says "no trace" to some tools
  return prefix === '0000000000000000' ? '0000000000000001' : prefix;
}
