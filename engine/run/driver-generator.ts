import type { LiveWindow, PhaseResult } from '../../contract/results.js';
import type { Phase } from '../../contract/scenario.js';
import { admissionNote, runDriver } from '../driver/driver.js';
import type { LoadGenerator } from './load-generator.js';
import { driverProtocol, driverTls } from './target-tls.js';
import { defaultPhaseName, phaseName as nameOfPhase } from '../../contract/phase.js';

/**
 * What an open driver plan runs after each phase (a capacity search's steps): the next phase with
 * its name, or null to end. Given each phase's result and the most arrivals queued in its windows.
 */
export type NextPhase = (ended: PhaseResult, queuedMax: number, tMs: number) => { phase: Phase; name: string } | null;

/**
 * Loadscope's own driver (worker threads); with `next`, phases are appended as they end, and none
 * starts whose planned length would end after `appendUntilMs` (ms after t0).
 */
/**
 * The notes of the latest run's server runs so far (the engine note is replaced, so it holds them
 * all). Notes come only from data files, and a prepared run's server runs share its one `data` list.
 */
let latestNotes: { data: unknown; notes: string[] } = { data: null, notes: [] };
function notesOfRun(data: unknown): string[] {
  if (latestNotes.data !== data) latestNotes = { data, notes: [] };
  return latestNotes.notes;
}

export function driverGenerator(next?: NextPhase, appendUntilMs?: number): LoadGenerator {
  return async ({ ctx, url, cert, signal, setT0, writes, phaseEnded }) => {
    const { emit, runId, targetId } = ctx;
    const names = ctx.scenario.phases.map((p, i) => nameOfPhase(p, i));
    const phaseName = (index: number) => names[index] ?? defaultPhaseName(index);
    const queuedMax: number[] = [];
    // a run's server runs go one after another: its note keeps what each of them said
    const notes = notesOfRun(ctx.data);
    let requests = 0;
    const tls = driverTls(ctx.server, cert);
    // a run that did not verify its target's certificate says so where its figures are read
    if (tls?.insecure && url.startsWith('https:')) {
      notes.push(`${ctx.server.label ?? ctx.server.architecture}: tls.insecure: the server's certificate was not verified`);
      writes.engineNote(notes.join('; '));
    }
    const protocol = driverProtocol(ctx.server);
    // a bundled server's accept queue is read before t0 (driver/admission.ts); an external one may sit behind a proxy
    const admissionPort = ctx.server.architecture === 'external' ? undefined : Number(new URL(url).port);
    const result = await runDriver(
      { baseUrl: url, phases: ctx.scenario.phases, allowRemote: ctx.allowRemote, data: ctx.data ?? [], ...(tls !== undefined && { tls }), protocol, ...(ctx.server.streams !== undefined && { streams: ctx.server.streams }), ...(appendUntilMs !== undefined && { appendUntilMs }), ...(admissionPort !== undefined && admissionPort > 0 && { admissionPort }), ...(ctx.tracePrefix !== undefined && { tracePrefix: ctx.tracePrefix }) },
      {
        onStart: (e) => {
          setT0(e.t0EpochMs);
          // users admitted late are the diagnosis's late-admission: the run says whether t0 waited for them
          const note = e.admission === undefined ? null : admissionNote(ctx.server.label ?? ctx.server.architecture, e.admission);
          if (note !== null) {
            notes.push(note);
            writes.engineNote(notes.join('; '));
          }
        },
        onPhaseStart: (e) => emit({ event: 'run:phase', payload: { runId, targetId, phaseIndex: e.phaseIndex, name: phaseName(e.phaseIndex), state: 'started', tMs: e.tMs } }),
        onPhaseEnd: (e) => {
          emit({ event: 'run:phase', payload: { runId, targetId, phaseIndex: e.phaseIndex, name: phaseName(e.phaseIndex), state: 'ended', tMs: e.tMs } });
          phaseEnded(e.result.result);
          // a phase cut short by its data says so in the run's note (the one owner of such notes)
          if (e.result.note !== undefined) {
            notes.push(`${ctx.server.label ?? ctx.server.architecture}: ${e.result.note}`);
            writes.engineNote(notes.join('; '));
          }
        },
        ...(next && {
          nextPhase: (e) => {
            const chosen = next(e.result.result, queuedMax[e.phaseIndex] ?? 0, e.tMs);
            if (chosen === null) return null;
            names.push(chosen.name);
            return { ...chosen.phase, name: chosen.name };
          },
        }),
        onWindow: (w) => {
          const window: LiveWindow = { runId, targetId, ...w };
          requests += w.count;
          queuedMax[w.phaseIndex] = Math.max(queuedMax[w.phaseIndex] ?? 0, w.queued);
          writes.windows([window]);
          emit({ event: 'run:window', payload: window });
        },
        onRows: (batch) => writes.rows(batch.rows, batch.count),
        // stored before onRows returns: the batch goes back to the worker
        rowsLent: true,
      },
      signal,
    );
    if (result.protocol !== undefined) writes.protocol(result.protocol);
    // after a full disk the phases' figures still go in (the store gave up its reserve for them)
    for (const phase of result.phases) writes.phase(phase.result, phase.histograms);
    return { requests, phases: result.phases.map((p) => p.result), failure: result.failure ?? null };
  };
}

export const nativeGenerator: LoadGenerator = driverGenerator();
