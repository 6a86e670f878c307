import { z } from 'zod';
import { FRONT_SPELLINGS, protocolUsesTls, type FrontSpelling, type Protocol } from './protocol.js';

// The bundled target architectures and their options. One source of truth: the scenario schema, the
// `loadscope servers` listing and the servers' own option parsing all use these schemas.

const positiveInt = z.number().int().min(1);

/**
 * How a bundled server speaks: plain HTTP/1.1, TLS (a self-signed certificate made at start), h2 by
 * ALPN over TLS (HTTP/1.1 too), or h2 with prior knowledge. Spelt as scenarios always have (http,
 * https) or in the one vocabulary (contract/protocol.ts); parsed into a Protocol.
 */
export const FrontProtocol = z.enum(Object.keys(FRONT_SPELLINGS) as [FrontSpelling, ...FrontSpelling[]]).transform((s): Protocol => FRONT_SPELLINGS[s]);
export type FrontProtocol = z.output<typeof FrontProtocol>;

/** Options every architecture has: they belong to the HTTP front (servers/http-front.ts), not to the architecture. */
const front = {
  protocol: FrontProtocol.optional().describe("absent: 'http' (h1); 'https' (h1-tls) and 'h2' use a self-signed certificate made at start; 'h2' also answers HTTP/1.1 (ALPN); 'h2c' is h2 without TLS"),
};

/** Does a bundled server with this protocol speak TLS (its base URL is https://)? */
export const frontUsesTls = protocolUsesTls;

export const SingleOptions = z.strictObject({
  ...front,
  /** Requests handled at once; 1 makes the server strictly sequential (seed 002's Rudy). 0 = no limit. */
  concurrency: z.number().int().min(0).default(0).describe('requests handled at once; 1 = strictly sequential, 0 = no limit'),
});

export const ClusterOptions = z.strictObject({
  ...front,
  workers: positiveInt.max(512).default(2).describe('node:cluster worker processes'),
});

export const AutoscaleOptions = z.strictObject({
  ...front,
  initial: z.number().int().min(0).max(512).default(1).describe('worker processes started with the Master'),
  min: z.number().int().min(0).max(512).default(1).describe('the Cooperator never retires below this many'),
  max: positiveInt.max(512).default(4).describe('the Cooperator never grows beyond this many'),
  idleMs: z.number().int().min(10).default(2000).describe('a worker idle this long is retired'),
});

export const OffloadOptions = z.strictObject({
  ...front,
  workers: positiveInt.max(256).default(2).describe('long-lived work processes'),
  httpWorkers: z.number().int().min(0).max(64).default(0).describe('0: HTTP in one process; N: HTTP in N cluster workers'),
  dispatch: z.enum(['round-robin', 'least-busy']).default('round-robin').describe('how work is sent to the work processes'),
  /** Where the work runs: 'workers' (offloaded) or 'http' (in the HTTP process; seed 004's first variants). */
  workIn: z.enum(['workers', 'http']).default('workers').describe("'workers' offloads the work; 'http' runs it in the HTTP process"),
});

export const ThreadPerRequestOptions = z.strictObject({
  ...front,
  buckets: positiveInt.max(1 << 20).default(32).describe('slots of the shared bucket array under Atomics locks'),
});

export const ThreadPoolOptions = z.strictObject({
  ...front,
  threads: positiveInt.max(1024).default(4).describe('pre-created worker threads'),
  buckets: positiveInt.max(1 << 20).default(32).describe('slots of the shared bucket array under Atomics locks'),
});

export const architectureOptions = {
  single: SingleOptions,
  cluster: ClusterOptions,
  autoscale: AutoscaleOptions,
  offload: OffloadOptions,
  'thread-per-request': ThreadPerRequestOptions,
  'thread-pool': ThreadPoolOptions,
} as const;

export const ARCHITECTURES = ['single', 'cluster', 'autoscale', 'offload', 'thread-per-request', 'thread-pool'] as const;
export const Architecture = z.enum(ARCHITECTURES);
export type Architecture = z.infer<typeof Architecture>;

export type ArchitectureOptions = {
  [A in Architecture]: z.output<(typeof architectureOptions)[A]>;
};

export const architectureDescriptions: Record<Architecture, string> = {
  single: 'one process; the work runs in the event loop (concurrency: 1 makes it strictly sequential)',
  cluster: 'node:cluster with a fixed number of worker processes',
  autoscale: 'a Master front dispatching to a process pool; a Cooperator adds processes when all are busy and retires idle ones',
  offload: 'HTTP in one process (or N cluster workers), the work sent to K long-lived work processes',
  'thread-per-request': 'a new worker thread per request',
  'thread-pool': 'pre-created worker threads with a queue, and a shared bucket array under Atomics locks',
};

/** Stats every bundled server answers on GET /__stats (fields it cannot know are 0). */
export const ServerStats = z.object({
  architecture: Architecture,
  processes: z.number(),
  threads: z.number(),
  busy: z.number(),
  queue: z.number(),
  spawned: z.number(),
  retired: z.number(),
  handled: z.number(),
  /** thread-pool / thread-per-request: the sum of the bucket counters (equals handled when locks hold). */
  bucketTotal: z.number().optional(),
  /** The most requests ever worked on at once since start (shows whether a concurrency limit held). */
  maxBusy: z.number().optional(),
  /** WebSocket sessions of the process that answered (servers/ws-front.ts; cluster, offload's HTTP workers: that worker's alone): open now, messages received and sent since start */
  webSockets: z.object({ open: z.number(), received: z.number(), sent: z.number() }).optional(),
});
export type ServerStats = z.infer<typeof ServerStats>;

/** The message a bundled server sends its parent (IPC) once it listens. */
export interface ServerReadyMessage {
  type: 'ready';
  port: number;
  pid: number;
  /** The self-signed certificate (PEM) of a server over TLS, so the one who started it can trust exactly it. */
  cert?: string;
  /** what it speaks; absent: 'h1' */
  protocol?: Protocol;
}

export const STATS_PATH = '/__stats';
export const WORKLOADS = ['fib', 'sleep', 'static', 'image', 'leak'] as const;
