import type { PhaseResult, ServerSample } from '../../contract/results.js';
import type { Store, TargetUpdate } from '../../db/store.js';
import { describeDbError } from '../../db/store-faults.js';
import { isDiskFull } from '../../db/disk-reserve.js';
import { capacityGenerator } from './capacity-generator.js';
import { nativeGenerator } from './driver-generator.js';
import { readinessTls } from './target-tls.js';
import { checkThresholds } from './thresholds.js';
import type { GeneratorResult, GeneratorWrites, TargetContext, TargetOutcome } from './load-generator.js';
import { isServerSkipped, startServer, type ServerSampleData } from '../supervisor/supervisor.js';

/**
 * One server run: start the server, run every phase against it, stop it. Windows, samples and raw
 * rows are stored as they come (a crash of the app loses at most the batch in flight); a server that
 * dies mid-run ends its run as failed with everything measured until then kept.
 */
export async function runTarget(ctx: TargetContext): Promise<TargetOutcome> {
  const { store, emit, runId, targetId } = ctx;
  const started = performance.now();
  const elapsedMs = () => performance.now() - started;
  const peaks = { cpu: 0, rss: 0, processes: 0 };
  // Samples share the driver's time axis (ms from its t0); those taken while the server was still
  // starting, before t0, are not part of the run's timeline.
  let t0EpochMs: number | undefined;
  const onSample = (sample: ServerSampleData) => {
    if (t0EpochMs === undefined) return;
    const tMs = Math.round(performance.timeOrigin + performance.now() - t0EpochMs);
    const payload: ServerSample = { runId, targetId, tMs, cpuPercent: sample.cpuPercent, topCpuPercent: sample.topCpuPercent, rssBytes: sample.rssBytes, processes: sample.processes, busy: sample.busy, queue: sample.queue };
    peaks.cpu = Math.max(peaks.cpu, sample.cpuPercent);
    peaks.rss = Math.max(peaks.rss, sample.rssBytes);
    peaks.processes = Math.max(peaks.processes, sample.processes);
    write(() => store.insertSamples([payload]));
    emit({ event: 'run:sample', payload });
  };

  // The driver stops when the run is cancelled, the server dies under it, or the store stops
  // taking writes (a full disk); each fault is recorded with when it happened, and what was
  // measured until then is kept.
  const driverAbort = new AbortController();
  const sinceStart = () => (t0EpochMs === undefined ? 'before the start' : `${((Date.now() - t0EpochMs) / 1000).toFixed(1)} s after the start`);
  let crashReason: string | null = null;
  const onCrash = (exit: { reason: string; output: string[] }) => {
    const tail = exit.output.slice(-3).join(' | ');
    crashReason = `server exited during the run (${exit.reason}), ${sinceStart()}${tail ? `: ${tail}` : ''}`;
    driverAbort.abort('crashed');
  };
  // A bundled server that loses a worker process goes on serving with the others; it says so on
  // stderr ("loadscope-server cluster: worker 123 exited (SIGKILL)") and the note is kept with the run.
  const notes: string[] = [];
  const onLine = (line: string) => {
    const m = /^loadscope-server [\w-]+: (.*\bworker \d+ exited \([^)]*\))/.exec(line);
    if (m) notes.push(`${m[1]}, ${sinceStart()}`);
  };
  let storeFailure: string | null = null;
  function write(action: () => void): void {
    if (storeFailure !== null) return;
    try {
      action();
    } catch (err) {
      storeFailure = `${isDiskFull(err) ? 'disk full: ' : ''}the store stopped taking writes ${sinceStart()} (${describeDbError(err)})`;
      driverAbort.abort('store');
    }
  }
  function keep(action: () => void): void {
    try {
      action();
    } catch {
      // the store would not take even this: the rows and windows stored until then stay, and the
      // target's reason already says why
    }
  }

  let server;
  try {
    server = await startServer(ctx.server, { onSample, onCrash, onLine, signal: ctx.signal, allowRemote: ctx.allowRemote, readinessTls: readinessTls(ctx.server) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // the supervisor names the server in its messages; the target carries that name already (and the
    // run's reason prefixes it once), so a view would print it twice: "my-go-server: my-go-server: ..."
    const named = `${ctx.server.label ?? ctx.server.architecture}: `;
    const reason = message.startsWith(named) ? message.slice(named.length) : message;
    const skipped = isServerSkipped(err);
    store.updateTarget(targetId, { status: skipped ? 'skipped' : 'failed', reason, durationMs: Math.round(elapsedMs()) });
    return { status: skipped ? 'skipped' : 'failed', reason, phases: [], requests: 0, storeFailed: false };
  }

  const onCancel = () => driverAbort.abort('cancelled');
  ctx.signal.addEventListener('abort', onCancel, { once: true });
  store.updateTarget(targetId, { status: 'running', startedAt: new Date().toISOString() });

  // Thresholds are checked here, where every generator's phase end passes (native and k6 alike).
  const label = ctx.server.label ?? ctx.server.architecture;
  const thresholdTarget = { targetId, cellIndex: ctx.cellIndex, server: label, architecture: ctx.server.architecture };
  const phaseEnded = (phase: PhaseResult) => {
    const results = checkThresholds(ctx.scenario, thresholdTarget, phase);
    if (results.length === 0) return;
    write(() => store.saveThresholds(targetId, results));
    emit({ event: 'run:thresholds', payload: { runId, targetId, results } });
  };
  // A generator's only way to the store: rows and windows through write, its end through keep.
  const writes: GeneratorWrites = {
    rows: (rows, count) => write(() => store.insertRequests(targetId, rows, count)),
    windows: (batch) => write(() => store.insertWindows(batch)),
    phase: (phase, histograms) => keep(() => store.savePhase(targetId, phase, histograms)),
    engineNote: (note) => keep(() => store.setEngineNote(runId, note)),
    protocol: (protocol) => keep(() => store.setTargetProtocol(targetId, protocol)),
    instances: (instances) => keep(() => store.setTargetInstances(targetId, instances)),
  };
  // the generator sees its server run without the store, at run time as in its type
  const { store: _store, ...target } = ctx;
  let result: GeneratorResult;
  try {
    result = await (ctx.generator ?? (ctx.scenario.capacity ? capacityGenerator(ctx.scenario.capacity) : nativeGenerator))({
      ctx: target,
      url: server.url,
      ...(server.cert !== undefined && { cert: server.cert }),
      signal: driverAbort.signal,
      setT0: (epochMs) => {
        t0EpochMs = epochMs;
      },
      writes,
      phaseEnded,
    });
  } finally {
    ctx.signal.removeEventListener('abort', onCancel);
    await server.stop();
  }

  const fault = crashReason ?? result.failure ?? (storeFailure === null ? null : `${storeFailure}; ${keptRows(store, targetId)}`);
  const status: TargetOutcome['status'] = fault !== null ? 'failed' : ctx.signal.aborted ? 'cancelled' : 'completed';
  const said = [fault ?? (status === 'cancelled' ? 'cancelled by the user' : null), ...notes].filter((s): s is string => s !== null);
  const reason = said.length > 0 ? said.join('; ') : null;
  const outcome: TargetOutcome = { status, reason, phases: result.phases, requests: result.requests, storeFailed: storeFailure !== null };
  const update: TargetUpdate = { status, reason, durationMs: Math.round(elapsedMs()), peakCpu: peaks.cpu, peakRssBytes: peaks.rss, peakProcesses: peaks.processes };
  // After a store failure this may fail too; the run's own end (finishRun) still carries the reason.
  if (storeFailure !== null) keep(() => store.updateTarget(targetId, update));
  else store.updateTarget(targetId, update);
  return outcome;
}

/** "1,176 request rows were kept": what a run cut short by its store still has. */
function keptRows(store: Store, targetId: number): string {
  try {
    const n = store.storedRows(targetId);
    return `${n.toLocaleString('en-US')} request row${n === 1 ? ' was' : 's were'} kept`;
  } catch {
    return 'what was stored until then is kept';
  }
}

