import { fromApiError, LoadscopeError } from '../../contract/errors.js';
import { isOpenLoop, phaseName, phaseSlots, phaseThinkMs } from '../../contract/phase.js';
import { remoteHostOf, type Phase } from '../../contract/scenario.js';
import { checkLiteralTarget, notLoopback } from '../net/target-guard.js';
import { startDistWorker } from '../paths.js';
import { driverWorkerFile } from './worker-file.js';
import { probeTarget } from './transport/tls.js';
import { DEFAULT_WINDOW_MS, type DriverListener, type DriverPhaseResult, type DriverPlan, type DriverResult, type FromWorkerMessage, type ToWorkerMessage } from './types.js';

export type * from './types.js';
export { admissionNote, type AdmissionWait } from './admission.js';
export { COL, ROW_STRIDE, readRow, toRequestPoint, type RawRowBatch, type RequestRow } from './measure/raw-rows.js';
export { probeTarget } from './transport/tls.js';

// The driver's young generation, sized by what the plan asks of it (issue 29; docs/performance.md,
// "The tail"). It allocates ~15 KB per request (mostly Node's own per event-loop turn) and keeps
// almost none. A driver that waits for its work (open-loop arrivals, one request at a time, users
// who think) is held up by each collection that lands while a request is out, which then reads
// late: fewer, larger collections mean fewer requests measured late. A driver kept saturated by
// closed users is busy either way; there the small nursery is cheaper per request and lighter (the
// figures: docs/performance.md, "Figures behind the code").
export const DRIVER_YOUNG_GENERATION_MB = { saturated: 6, waiting: 16 } as const;

/** A phase whose driver waits for its work between requests (see DRIVER_YOUNG_GENERATION_MB); the facts are contract/phase.ts's. */
function waitsForWork(p: Phase): boolean {
  // open-loop arrivals, one request out at a time, or users who pause (the phase's or a step's)
  return isOpenLoop(p) || phaseSlots(p) === 1 || phaseThinkMs(p) > 0 || p.requests.some((r) => (r.thinkMs ?? 0) > 0);
}

/**
 * The young generation the driver's worker gets for these phases; LOADSCOPE_DRIVER_YOUNG_GENERATION_MB
 * overrides it (a measuring aid: bench/tail.mjs --env, bench/builds-ab.mjs name=.:VAR=VALUE).
 */
export function driverYoungGenerationMb(phases: readonly Phase[], env: string | undefined = process.env.LOADSCOPE_DRIVER_YOUNG_GENERATION_MB): number {
  const mb = Number(env);
  if (env !== undefined && env !== '' && Number.isFinite(mb) && mb >= 1 && mb <= 256) return mb;
  return phases.some(waitsForWork) ? DRIVER_YOUNG_GENERATION_MB.waiting : DRIVER_YOUNG_GENERATION_MB.saturated;
}

/** After a cancel, how long the worker gets to report what it measured before it is terminated. */
const CANCEL_GRACE_MS = 3000;

/**
 * Windows of silence after which a worker running a phase is taken for stuck (a thread in a
 * synchronous loop, e.g. a backtracking regex extracting from a response): 10 s at the default 250
 * ms. While a phase runs the worker reports every window (a window per running phase, even with
 * nothing done) and raw rows every 25 ms. Counted in this thread's own ticks, not wall time, so a
 * main thread that was itself held up does not blame the worker for the messages it has not read.
 */
export const STALL_WINDOWS = 40;

/**
 * Why load may not go to `baseUrl`, or null: a literal address outside this machine, or a name other
 * than localhost, without consent (every resolution is checked again at connect, on the address
 * connected to). A try (engine/run/try/) asks it too.
 */
export function refusedTarget(baseUrl: string, allowRemote: boolean): LoadscopeError | null {
  try {
    checkLiteralTarget(baseUrl, allowRemote);
    const remote = remoteHostOf(baseUrl);
    if (remote !== null && !allowRemote) throw notLoopback(remote, remote);
    return null;
  } catch (err) {
    return err instanceof LoadscopeError ? err : new LoadscopeError('LS_ERR_NOT_LOOPBACK', `not a target URL: ${baseUrl}`);
  }
}

/**
 * Runs the plan's phases in a worker thread against a loopback target. The listener hears phase
 * starts/ends, live windows and raw row batches as they happen; the promise resolves with the
 * per-phase results. Aborting `signal` stops issuing, aborts in-flight requests and resolves with
 * what was measured (cancelled: true).
 */
export function runDriver(plan: DriverPlan, listener: DriverListener, signal?: AbortSignal): Promise<DriverResult> {
  const refused = refusedTarget(plan.baseUrl, plan.allowRemote ?? false);
  if (refused !== null) return Promise.reject(refused);
  if (signal?.aborted) return Promise.resolve({ cancelled: true, t0EpochMs: Date.now(), durationMs: 0, phases: [] });
  // an https target whose certificate does not verify ends here, before any load (tls.ts)
  return probeTarget(plan.baseUrl, plan.tls, plan.protocol ?? 'h1', plan.allowRemote ?? false).then((protocol) => runInWorker(plan, listener, signal).then((result) => ({ ...result, protocol })));
}

function runInWorker(plan: DriverPlan, listener: DriverListener, signal?: AbortSignal): Promise<DriverResult> {
  if (signal?.aborted) return Promise.resolve({ cancelled: true, t0EpochMs: Date.now(), durationMs: 0, phases: [] });
  return new Promise<DriverResult>((resolve, reject) => {
    // a listener that chooses the next phase keeps the worker's plan open for it
    const open = listener.nextPhase !== undefined;
    const worker = startDistWorker('engine/driver/driver-worker.ts', { workerData: { plan: { ...plan, open, rowsLent: listener.rowsLent === true } }, resourceLimits: { maxYoungGenerationSizeMb: driverYoungGenerationMb(plan.phases) } }, driverWorkerFile());
    const ended: DriverPhaseResult[] = [];
    let t0EpochMs = Date.now();
    let settled = false;
    let graceTimer: NodeJS.Timeout | null = null;
    // the watchdog's heartbeat is what the worker sends anyway (windows, row batches, phase events)
    const phases = [...plan.phases];
    const running = new Set<number>();
    let rowsKept = 0;
    let silentWindows = 0;
    const windowMs = plan.windowMs ?? DEFAULT_WINDOW_MS;
    const watchdog = setInterval(() => {
      // armed while a phase runs (between phases, e.g. waiting for one's `at`, the worker has nothing to report)
      if (running.size > 0 && ++silentWindows >= STALL_WINDOWS) stalled();
    }, windowMs);

    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (graceTimer) clearTimeout(graceTimer);
      clearInterval(watchdog);
      fn();
      void worker.terminate();
    };
    const fail = (err: unknown): void => settle(() => reject(err));

    function onAbort(): void {
      const msg: ToWorkerMessage = { type: 'cancel' };
      worker.postMessage(msg);
      graceTimer = setTimeout(() => {
        const phases = ended.sort((a, b) => a.result.index - b.result.index);
        const durationMs = Math.max(0, ...phases.map((p) => p.result.startedMs + p.result.durationMs));
        settle(() => resolve({ cancelled: true, t0EpochMs, durationMs, phases }));
      }, CANCEL_GRACE_MS);
    }
    signal?.addEventListener('abort', onAbort, { once: true });

    worker.on('message', (msg: FromWorkerMessage) => {
      if (settled) return;
      silentWindows = 0;
      try {
        switch (msg.type) {
          case 'started':
            t0EpochMs = msg.t0EpochMs;
            listener.onStart?.({ t0EpochMs: msg.t0EpochMs, ...(msg.admission !== undefined && { admission: msg.admission }) });
            break;
          case 'phase-start':
            running.add(msg.phaseIndex);
            listener.onPhaseStart?.({ phaseIndex: msg.phaseIndex, tMs: msg.tMs });
            break;
          case 'phase-end': {
            running.delete(msg.phaseIndex);
            ended.push(msg.result);
            const e = { phaseIndex: msg.phaseIndex, tMs: msg.tMs, result: msg.result };
            listener.onPhaseEnd?.(e);
            if (open && !signal?.aborted) {
              const next = listener.nextPhase?.(e) ?? null;
              if (next !== null) phases.push(next);
              const reply: ToWorkerMessage = next === null ? { type: 'close' } : { type: 'append', phase: next };
              worker.postMessage(reply);
            }
            break;
          }
          case 'window':
            listener.onWindow?.(msg.window);
            break;
          case 'rows':
            rowsKept += msg.count;
            listener.onRows?.({ rows: msg.rows, count: msg.count });
            if (listener.rowsLent === true) {
              const back: ToWorkerMessage = { type: 'rows-back', rows: msg.rows };
              worker.postMessage(back, [msg.rows.buffer as ArrayBuffer]);
            }
            break;
          case 'done':
            settle(() => resolve(msg.result));
            break;
          case 'error':
            fail(fromApiError(msg));
            break;
        }
      } catch (err) {
        // a listener threw: stop the load, report the listener's error
        fail(err);
      }
    });
    // The worker dying mid-run is a fault to record, not a reason to lose what it measured: the
    // phases that ended are returned (windows and rows already went to the listener).
    const endWith = (failure: (atS: string) => string): void =>
      settle(() => {
        const kept = ended.sort((a, b) => a.result.index - b.result.index);
        const atS = ((Date.now() - t0EpochMs) / 1000).toFixed(1);
        const durationMs = Math.max(0, ...kept.map((p) => p.result.startedMs + p.result.durationMs));
        resolve({ cancelled: true, t0EpochMs, durationMs, phases: kept, failure: failure(atS) });
      });
    const died = (what: string): void => endWith((atS) => `the load driver's worker thread ${what} ${atS} s after the start`);
    // A worker that stopped reporting is ended like one that died; its rows already went to the listener.
    function stalled(): void {
      const names = [...running].sort((a, b) => a - b).map((i) => `'${phaseName(phases[i] ?? {}, i)}'`);
      const silentS = (STALL_WINDOWS * windowMs) / 1000;
      const rows = `${rowsKept.toLocaleString('en-US')} request row${rowsKept === 1 ? '' : 's'} kept`;
      endWith((atS) => `the load driver stopped answering during phase ${names.join(', ')} (nothing from it for ${silentS} s, ${atS} s after the start); ${rows}`);
    }
    worker.on('error', (err) => died(`failed (${err.message})`));
    worker.on('exit', (code) => died(`exited (code ${code})`));
  });
}
