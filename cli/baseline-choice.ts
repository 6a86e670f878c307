import type { ParsedCallRequest } from '../contract/api.js';
import { profileOf } from '../contract/baselines.js';
import { LoadscopeError } from '../contract/errors.js';
import type { RunSummary } from '../contract/results.js';
import type { Engine } from '../engine/engine.js';

// `loadscope run SCENARIO --baseline [RUN]`: which runs the new run is judged against, found before
// any load is sent (a missing baseline is bad usage, exit 2, not a failed run).

/** --baseline alone: the scenario's pinned baseline; --baseline RUN: that run. */
export type BaselineChoice = true | number;

export interface BaselineSide {
  /** the baseline's runs (a repeated group's, or one), for the first run made */
  runIds(made: Pick<RunSummary, 'scenarioName' | 'quick'>): number[];
}

const notPinned = (scenario: string, quick: boolean) =>
  new LoadscopeError('LS_ERR_BAD_REQUEST', `no baseline pinned for scenario '${scenario}' (${profileOf(quick)}); pin one with \`loadscope baseline set RUN\`, or give --baseline RUN`);

/**
 * The scenario's name and profile as the run will store them, when they can be known without running
 * it: the engine's own answer (a scenario without a quick profile runs full, whatever --quick says).
 */
async function scenarioNameOf(engine: Engine, source: ParsedCallRequest<'runs:start'>['scenario'], quick: boolean): Promise<{ name: string; quick: boolean } | null> {
  let text: string;
  let asked = quick;
  if ('name' in source) text = (await engine.handlers['scenarios:get']({ name: source.name })).text;
  else if ('runId' in source) {
    const stored = await engine.handlers['runs:scenario']({ runId: source.runId });
    text = stored.text;
    asked ||= stored.quick;
  } else text = source.text;
  const checked = await engine.handlers['scenarios:validate']({ text, quick: asked });
  // an invalid scenario is refused by the run itself, with every path and reason
  return checked.ok ? { name: checked.scenario.name, quick: checked.plan.quick } : null;
}

export async function resolveBaseline(engine: Engine, source: ParsedCallRequest<'runs:start'>['scenario'], quick: boolean, choice: BaselineChoice): Promise<BaselineSide> {
  const { store } = engine;
  if (choice !== true) {
    const run = store.getRun(choice);
    if (run.status !== 'completed') throw new LoadscopeError('LS_ERR_BAD_REQUEST', `run ${choice} is ${run.status}; a baseline must be a completed run`);
    return { runIds: () => store.baselines.standingFor(choice) };
  }
  const named = await scenarioNameOf(engine, source, quick);
  if (named !== null && store.baselines.get(named.name, profileOf(named.quick)) === null) throw notPinned(named.name, named.quick);
  return {
    runIds: (made) => {
      const pinned = store.baselines.get(made.scenarioName, profileOf(made.quick));
      if (pinned === null) throw notPinned(made.scenarioName, made.quick);
      return pinned.runIds;
    },
  };
}
