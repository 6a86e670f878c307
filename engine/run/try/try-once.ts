import { LoadscopeError } from '../../../contract/errors.js';
import type { ParsedCallRequest } from '../../../contract/api.js';
import { TRY_LIMITS, type TriedStep, type TryResult } from '../../../contract/try-once.js';
import { templateName } from '../../../contract/template-name.js';
import type { Store } from '../../../db/store.js';
import { probeTarget, refusedTarget } from '../../driver/driver.js';
import { targetOf } from '../../driver/transport/index.js';
import { tryPhase, type RawStep } from '../../driver/try/try-phase.js';
import { startServer } from '../../supervisor/supervisor.js';
import { prepareRun } from '../prepare-run.js';
import { driverProtocol, driverTls, readinessTls } from '../target-tls.js';
import { tracePrefixFor } from '../trace-prefix.js';
import { SecretMask } from './mask-secrets.js';
import { presentStep } from './present-step.js';

// Try once (issue 39): one user through the scenario's journey against its target, started as for
// a run (prepareRun: quick, --set, validation, consent, data files; the supervisor starts a bundled
// server or an external command and stops it after), every phase in order (driver/try/try-phase.ts).
// Nothing is stored: a try is not a run. Its first matrix cell is tried, against one of its servers.

export type TryRequest = ParsedCallRequest<'scenarios:try'>;

export async function tryOnce(store: Store, req: TryRequest, signal: AbortSignal): Promise<TryResult> {
  const consent = { allowRemote: req.allowRemote ?? false, allowCommands: req.allowCommands ?? false, allowFiles: req.allowFiles ?? false };
  const prepared = prepareRun(store, req.scenario, { quick: req.quick, set: req.set, consent });
  const cell = prepared.cells[0]!;
  const scenario = cell.scenario;
  // a stream (issue 41) lasts until its events or duration: a try shows one request's response, a run times streams
  for (const [i, phase] of scenario.phases.entries()) {
    const j = phase.requests.findIndex((t) => t.stream !== undefined);
    if (j >= 0) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `phases[${i}].requests[${j}].stream: Try once shows one request and its response; a stream is timed by a run (its events, gaps and end), so run it instead`);
  }
  const spec = scenario.servers[req.server];
  if (spec === undefined) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `servers[${req.server}]: the scenario has ${scenario.servers.length} server${scenario.servers.length === 1 ? '' : 's'}`);
  const label = spec.label ?? spec.architecture;
  const notes: string[] = [];
  if (prepared.cells.length > 1) notes.push(`tried the first of ${prepared.cells.length} matrix cells (${cell.label})`);
  if (scenario.servers.length > 1) notes.push(`tried servers[${req.server}] (${label}) of ${scenario.servers.length} servers`);

  const server = await startServer(spec, { signal, allowRemote: consent.allowRemote, readinessTls: readinessTls(spec), sampleIntervalMs: 0 });
  const raw: RawStep[][] = [];
  let unreachable: string | null = null;
  try {
    const refused = refusedTarget(server.url, consent.allowRemote);
    if (refused !== null) throw refused;
    const tls = driverTls(spec, server.cert);
    const protocol = driverProtocol(spec);
    // a certificate that does not verify is one line here, as before a run's load
    await probeTarget(server.url, tls, protocol, consent.allowRemote);
    const target = targetOf({ baseUrl: server.url, protocol, ...(spec.streams !== undefined && { streams: spec.streams }), ...(tls !== undefined && { tls }), allowRemote: consent.allowRemote });
    const budget = { left: TRY_LIMITS.steps, seq: 0 };
    const tracePrefix = tracePrefixFor(scenario);
    for (const [i, phase] of scenario.phases.entries()) {
      if (unreachable !== null) {
        raw.push(phase.requests.map((t, j) => notSentStep(i, j, templateName(t), 'the target could not be reached')));
        continue;
      }
      const data = prepared.data?.find((d) => d.name === phase.data) ?? null;
      const outcome = await tryPhase({ target, phase, phaseIndex: i, data, tracePrefix, budget, signal });
      raw.push(outcome.steps);
      unreachable = outcome.unreachable;
    }
  } finally {
    await server.stop();
  }
  // twice: the first pass learns every secret (a token in step 2's response is masked in step 1's too)
  const mask = new SecretMask();
  const present = (): TriedStep[] => raw.flatMap((steps, i) => steps.map((s) => presentStep(s, scenario.phases[i]!, mask)));
  present();
  const steps = present();
  const passed = steps.every((s) => s.notSent === null && s.error === null);
  return { scenario: scenario.name, server: label, url: server.url, steps, passed, unreachable: unreachable === null ? null : mask.hide(unreachable), notes };
}

function notSentStep(phaseIndex: number, stepIndex: number, name: string, why: string): RawStep {
  return { phaseIndex, stepIndex, name, at: `phases[${phaseIndex}].requests[${stepIndex}]`, notSent: why, request: null, exchange: null, placeholders: [], extracted: null, checks: [], error: null, failurePath: null };
}
