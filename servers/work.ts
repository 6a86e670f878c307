// A unit of work, as it travels from the front to wherever the work runs (same process, a worker
// process over IPC, a worker thread): plain data, structured-clone safe. Random ranges are resolved by
// the front, so the work message carries the concrete n / ms the worker runs.

export type Work =
  | { kind: 'fib'; n: number }
  | { kind: 'sleep'; ms: number; block: boolean }
  | { kind: 'static'; size: number }
  | { kind: 'leak'; kb: number }
  | { kind: 'image'; index: number }
  | { kind: 'api'; call: ApiCall };

/** One call of the bundled API (routes and parsing: api-request.ts; running: workloads/api.ts). */
export type ApiCall =
  | { op: 'login'; user: string; password: string }
  | { op: 'me'; token: string | null }
  | { op: 'item'; id: number; token: string | null }
  | { op: 'echo'; method: string; path: string; body: unknown; headers: Record<string, string> };

/** What a workload answers; `body` is a string (JSON) or bytes (static). */
export interface WorkResult {
  status: number;
  contentType: string;
  body: string | Uint8Array;
}

/** A finished piece of work, timed on the shared clock (see clock.ts) by whoever ran it. */
export interface WorkDone {
  result: WorkResult;
  startMs: number;
  procMs: number;
}

export function jsonResult(value: unknown, status = 200): WorkResult {
  return { status, contentType: 'application/json', body: JSON.stringify(value) };
}

export function textResult(status: number, reason: string): WorkResult {
  return { status, contentType: 'text/plain; charset=utf-8', body: `${reason}\n` };
}
