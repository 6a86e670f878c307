import type { EngineEvent } from '../../contract/api.js';
import { tracePrefixFor } from './trace-prefix.js';
import { LoadscopeError } from '../../contract/errors.js';
import type { RunEngine, RunStatus, RunSummary } from '../../contract/results.js';
import type { Scenario } from '../../contract/scenario.js';
import type { DataSet } from '../../contract/variables.js';
import type { RunSource, Store } from '../../db/store.js';
import { describeDbError } from '../../db/store-faults.js';
import { isDiskFull } from '../../db/disk-reserve.js';
import { machineInfo } from '../machine-info.js';
import { renderReport } from '../report/render-report.js';
import type { Cell } from '../scenario/index.js';
import type { ConsentGiven, RunConsent } from './consent.js';
import { RunProgress, targetPlanOf } from './run-progress.js';
import { runTarget } from './run-target.js';
import type { LoadGenerator, TargetOutcome } from './load-generator.js';

export interface PreparedRun {
  scenario: Scenario;
  cells: Cell[];
  quick: boolean;
  /** what it was started from (stored with the run for "open its scenario" and "run again") */
  source?: RunSource;
  /** what the run needed beyond this machine and what the person agreed to (stored with the run) */
  consent?: RunConsent & ConsentGiven;
  /** who sends the load (default: the native driver); engine and engineNote are stored with the run */
  generator?: LoadGenerator;
  engine?: RunEngine;
  engineNote?: string;
  /** the scenario's data files, read when the run was prepared */
  data?: DataSet[];
}

interface ActiveRun {
  id: number;
  abort: AbortController;
  done: Promise<RunStatus>;
  /** why it was cancelled, once it is */
  reason?: string;
}

/**
 * Runs scenarios: for each matrix cell, for each server, one server run (see run-target.ts). One run
 * at a time: two runs on the same cores would distort each other's timings.
 */
export class Orchestrator {
  private active: ActiveRun | undefined;

  constructor(
    private readonly store: Store,
    private readonly emit: (event: EngineEvent) => void,
  ) {}

  get activeRunId(): number | undefined {
    return this.active?.id;
  }

  /** Creates the run and starts it; resolves with its id at once. `done` resolves when it ends. */
  start(prepared: PreparedRun): { runId: number; done: Promise<RunStatus> } {
    if (this.active) {
      throw new LoadscopeError('LS_ERR_RUN_ACTIVE', `run ${this.active.id} is still running; cancel it or wait for it to finish`);
    }
    const { scenario, cells, quick, source } = prepared;
    const runId = this.store.createRun({
      scenarioName: scenario.name,
      title: scenario.title ?? scenario.name,
      quick,
      scenario,
      machine: machineInfo(),
      rawCap: scenario.rawRowCap,
      ...(source ? { source } : {}),
      consent: prepared.consent,
      engine: prepared.engine,
      engineNote: prepared.engineNote,
    });
    this.store.addCells(runId, cells.map((c) => ({ index: c.index, label: c.label, params: c.params })));
    const abort = new AbortController();
    const done = this.execute(runId, prepared, abort.signal).finally(() => {
      this.active = undefined;
    });
    this.active = { id: runId, abort, done };
    return { runId, done };
  }

  cancel(runId: number, reason = 'cancelled by the user'): boolean {
    if (this.active?.id !== runId) return false;
    this.active.reason ??= reason;
    this.active.abort.abort();
    return true;
  }

  /** Cancels the active run (if any) and waits for it to wind down. */
  async shutdown(reason = 'cancelled: Loadscope was closed'): Promise<void> {
    const active = this.active;
    if (!active) return;
    active.reason ??= reason;
    active.abort.abort();
    await active.done.catch(() => undefined);
  }

  private async execute(runId: number, { scenario, cells, consent, generator, data }: PreparedRun, signal: AbortSignal): Promise<RunStatus> {
    const targets = cells.flatMap((cell) => cell.scenario.servers.map((server, serverIndex) => ({ cell, server, serverIndex })));
    this.emit({
      event: 'run:started',
      payload: { runId, scenarioName: scenario.name, title: scenario.title ?? scenario.name, cells: cells.map(({ index, label, params }) => ({ index, label, params })), totalTargets: targets.length, scenario },
    });
    const tracker = new RunProgress(targets.map((t) => targetPlanOf(t.cell.scenario)));
    const progress = setInterval(() => this.emit({ event: 'run:progress', payload: { runId, ...tracker.snapshot() } }), 500);
    progress.unref();

    const failures: string[] = [];
    let started = 0;
    /** why the store ended the run early (a full disk), or null */
    let stoppedBy: string | null = null;
    let status: RunStatus = 'completed';
    let reason: string | null = null;
    try {
      for (const { cell, server, serverIndex } of targets) {
        if (signal.aborted) break;
        const label = server.label ?? server.architecture;
        const tracePrefix = tracePrefixFor(cell.scenario);
        const targetId = this.store.createTarget({ runId, cellIndex: cell.index, serverIndex, label, architecture: server.architecture, ...(tracePrefix !== undefined && { tracePrefix }) });
        started++;
        this.emit({ event: 'run:target', payload: { runId, targetId, cellIndex: cell.index, serverIndex, label, architecture: server.architecture, status: 'running', reason: null } });
        tracker.targetStarted();
        const emit = (event: EngineEvent) => {
          tracker.observe(event);
          this.emit(event);
        };
        const outcome: TargetOutcome = await runTarget({ store: this.store, emit, runId, targetId, scenario: cell.scenario, cellIndex: cell.index, server, signal, allowRemote: consent?.allowRemote ?? false, generator, ...(data !== undefined && { data }), ...(tracePrefix !== undefined && { tracePrefix }) });
        tracker.targetEnded(outcome.status);
        this.emit({ event: 'run:target', payload: { runId, targetId, cellIndex: cell.index, serverIndex, label, architecture: server.architecture, status: outcome.status, reason: outcome.reason } });
        if (outcome.status === 'failed') failures.push(`${label}${cells.length > 1 ? ` (${cell.label})` : ''}: ${outcome.reason}`);
        // A store that stopped taking writes (a full disk) would fail every server after this one too.
        if (outcome.storeFailed) {
          stoppedBy = outcome.reason ?? 'the store stopped taking writes';
          break;
        }
      }
      if (stoppedBy !== null) {
        status = 'failed';
        const left = targets.length - started;
        reason = `${stoppedBy}${left > 0 ? `; ${left} of ${targets.length} server runs were not started` : ''}`;
      } else if (signal.aborted) {
        status = 'cancelled';
        reason = this.active?.id === runId ? (this.active.reason ?? 'cancelled by the user') : 'cancelled by the user';
      } else if (failures.length > 0) {
        status = 'failed';
        reason = `${failures.length} of ${targets.length} server runs failed: ${failures.join('; ')}`;
      }
    } catch (err) {
      status = 'failed';
      reason = `${isDiskFull(err) ? 'disk full: ' : ''}${describeDbError(err)}`;
    } finally {
      clearInterval(progress);
    }
    tracker.finish(status);
    this.emit({ event: 'run:progress', payload: { runId, ...tracker.snapshot() } });
    const report = this.report(runId, scenario);
    try {
      this.store.finishRun(runId, status, reason, report);
    } catch (err) {
      // The store would not take even this (a full disk): the next open marks the run interrupted.
      status = 'failed';
      reason = `${reason ?? 'the run ended'}; storing its end failed: ${describeDbError(err)}`;
    }
    this.emit({ event: 'run:finished', payload: { runId, status, reason } });
    return status;
  }

  private report(runId: number, scenario: Scenario): RunSummary['report'] {
    if (!scenario.report) return [];
    try {
      return renderReport(scenario, this.store.getRun(runId));
    } catch (err) {
      console.error(`loadscope: the report of run ${runId} could not be rendered:`, err);
      return [];
    }
  }
}
