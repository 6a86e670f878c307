import { z } from 'zod';

// The instance dimension of a k6 run (issue 40): a server run whose load several k6 processes sent
// (`run --engine k6 --instances N`, or `import-k6` of several pods' files) keeps one line of facts
// per instance beside its merged phases. The phases' figures are the merge (one histogram fed by
// every instance's points, never percentiles averaged); these facts only say who sent what, and when
// each started: the start skew is how far apart the instances' first requests began.

/** `run --instances N`: at most this many k6 processes on one machine. */
export const MAX_RUN_INSTANCES = 16;
/** An import's `ls_instance` tags (k6-operator runners): 0 up to this, exclusive. */
export const MAX_STORED_INSTANCES = 256;

export const InstanceEndpoint = z.object({ name: z.string(), count: z.number().int().nonnegative() });

export const InstanceFacts = z.object({
  /** the k6 process's `ls_instance` tag (its execution segment's index), or its file's index */
  instance: z.number().int().nonnegative(),
  /** requests it sent (errors included, dropped iterations not) */
  requests: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  /** arrivals it could not start in time (k6's dropped iterations): k6's sign of a generator behind */
  dropped: z.number().int().nonnegative(),
  /** its first request's start, ms from the server run's t0; null: it sent none */
  firstMs: z.number().nullable(),
  /** its last request's end, ms from the server run's t0 */
  lastMs: z.number().nullable(),
  /** mean CPU of its k6 process over its life, % of one core; null: not known (an import) */
  cpuPercent: z.number().nonnegative().nullable(),
  /** its requests per endpoint (the `name` tag), across phases */
  endpoints: z.array(InstanceEndpoint),
});
export type InstanceFacts = z.infer<typeof InstanceFacts>;

/** The stored list, parsed where it is read: the store keeps it as JSON. */
export const InstanceList = z.array(InstanceFacts);

/** How far apart the instances' first requests began (ms); null with fewer than two that sent any. */
export function startSkewMs(instances: readonly InstanceFacts[]): number | null {
  const firsts = instances.map((i) => i.firstMs).filter((t): t is number => t !== null);
  if (firsts.length < 2) return null;
  return Math.max(...firsts) - Math.min(...firsts);
}

/** Each instance's start relative to the earliest one (ms): what a panel shows as its skew. */
export function instanceSkewMs(instance: InstanceFacts, all: readonly InstanceFacts[]): number | null {
  const firsts = all.map((i) => i.firstMs).filter((t): t is number => t !== null);
  if (instance.firstMs === null || firsts.length === 0) return null;
  return instance.firstMs - Math.min(...firsts);
}

/** What the instance table means, once under it (the CLI's `show`, the Run view's panel). */
export const INSTANCES_TERM =
  "instances: the k6 processes that sent this server run's load, each its own execution segment; the figures above are the merge of all their points (one histogram, never percentiles averaged) and thresholds are judged on it. start skew: how much later than the earliest instance each sent its first request. CPU: the k6 process's mean, % of one core (not known for an import).";
