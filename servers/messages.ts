import type { Work, WorkDone } from './work.js';

// Messages between a front and whatever runs its work (forked processes, cluster workers, threads):
// discriminated unions, structured-clone safe (processes are forked with serialization 'advanced').

/** Front -> work process / thread. */
export interface WorkMessage {
  type: 'work';
  id: number;
  work: Work;
}

/** Work process / thread -> front. */
export type WorkerReply = { type: 'ready' } | { type: 'done'; id: number; done: WorkDone };

/** Cluster-style HTTP worker <-> primary (cluster.ts, offload.ts with httpWorkers). */
export type ToPrimary =
  | { type: 'stats-request'; id: number }
  | { type: 'stats-reply'; id: number; busy: number; queue: number; handled: number; maxBusy: number }
  | WorkMessage;

export type ToHttpWorker =
  | { type: 'stats-answer'; id: number; stats: unknown }
  | { type: 'stats-query'; id: number }
  | { type: 'done'; id: number; done: WorkDone };

function hasType(value: unknown): value is { type: unknown } {
  return typeof value === 'object' && value !== null && 'type' in value;
}

const WORKER_REPLY_TYPES: ReadonlySet<unknown> = new Set(['ready', 'done']);
const TO_PRIMARY_TYPES: ReadonlySet<unknown> = new Set(['stats-request', 'stats-reply', 'work']);
const TO_HTTP_WORKER_TYPES: ReadonlySet<unknown> = new Set(['stats-answer', 'stats-query', 'done']);

// Our own processes are the only senders on these channels; the checks keep Node's internal cluster
// messages and anything unexpected out of the handlers.
export function isWorkerReply(value: unknown): value is WorkerReply {
  return hasType(value) && WORKER_REPLY_TYPES.has(value.type);
}

export function isWorkMessage(value: unknown): value is WorkMessage {
  return hasType(value) && value.type === 'work';
}

export function isToPrimary(value: unknown): value is ToPrimary {
  return hasType(value) && TO_PRIMARY_TYPES.has(value.type);
}

export function isToHttpWorker(value: unknown): value is ToHttpWorker {
  return hasType(value) && TO_HTTP_WORKER_TYPES.has(value.type);
}
