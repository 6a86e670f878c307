import { describe, expect, it } from 'vitest';
import { createScenario } from '../scenario/test-support/factories.js';
import { useTempEngine } from '../test-support/temp-engine.js';

// A run is stored as what it was (issue 36): asked to be quick, a scenario without a quick profile
// runs full and is stored full, so History, the reports, Compare, Trends and baselines see the same
// load as a full CLI run of it. Through the engine's own calls (every host goes through them), with
// a real bundled server and a real SQLite file.

const temp = useTempEngine('quick-stored', 'all');

type Source = { text: string } | { runId: number } | { name: string };
const textOf = (scenario: object): Source => ({ text: JSON.stringify(scenario) });

/** Started with quick on, run to its end: what the run page and History read back. */
async function runQuick(scenario: Source): Promise<{ runId: number; quick: boolean; status: string; listed: boolean | undefined }> {
  const { engine } = temp;
  const { runId } = await engine.handlers['runs:start']({ scenario, quick: true, set: {} });
  await engine.waitForRun(runId);
  const run = await engine.handlers['runs:get']({ runId });
  const listed = (await engine.handlers['runs:list']({ limit: 500 })).find((r) => r.id === runId)?.quick;
  return { runId, quick: run.quick, status: run.status, listed };
}

describe('quick is stored only where a quick profile was applied', () => {
  it('a scenario without a quick profile, started quick from text, from the library and again from its run: stored as a full run', async () => {
    const plain = createScenario({ name: 'no-profile', phases: [{ executor: 'burst', count: 3, requests: [{ path: '/fib?n=5' }] }] });
    const fromText = await runQuick(textOf(plain));
    expect(fromText).toMatchObject({ status: 'completed', quick: false, listed: false });

    await temp.engine.handlers['library:save']({ text: JSON.stringify(plain) });
    expect(await runQuick({ name: 'no-profile' })).toMatchObject({ status: 'completed', quick: false, listed: false });
    expect(await runQuick({ runId: fromText.runId })).toMatchObject({ status: 'completed', quick: false, listed: false });
  });

  it('a scenario with a quick profile, started quick: stored quick, its profile applied', async () => {
    const withProfile = createScenario({ name: 'with-profile', phases: [{ executor: 'burst', count: 3, requests: [{ path: '/fib?n=5' }] }], quick: { 'phases[0].count': 2 } });
    const run = await runQuick(textOf(withProfile));
    expect(run).toMatchObject({ status: 'completed', quick: true, listed: true });
    const summary = await temp.engine.handlers['runs:get']({ runId: run.runId });
    expect(summary.targets[0]?.phases[0]?.count).toBe(2);
  });
});
