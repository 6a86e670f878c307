import { describe, expect, it } from 'vitest';
import { endpointAsPhase, shownEndpoints } from '../../contract/endpoints.js';
import { NOT_MEASURED, phaseFigures } from '../../contract/engine-figures.js';
import { phaseRows, timingNotes } from '../../contract/report/run-report.js';
import { createNeverReachedJourney } from '../scenario/test-support/factories.js';
import { useTempEngine } from '../test-support/temp-engine.js';

// An endpoint with no requests (issue 36): a flow whose login always fails never sends its second
// step, and that step's empty histograms read 0, which the tables showed as 0.00 ms. Every view reads
// figures through phaseFigures, so there it must be "no requests", not a time: checked on a real run
// (real bundled API, real SQLite) as the UI's tables and the reports read it (cli/cli-endpoints has the CLI's).

const temp = useTempEngine('zero-endpoint', 'all');

describe('an endpoint that got no requests', () => {
  it('a flow whose first step always fails: the second step has no times, "-" with why, in every reader', async () => {
    const scenario = createNeverReachedJourney();
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
    await temp.engine.waitForRun(runId);
    const run = await temp.engine.handlers['runs:get']({ runId });
    const phase = run.targets[0]!.phases[0]!;
    const [login, item] = shownEndpoints(phase);
    expect([login?.count, item?.count]).toEqual([10, 0]);

    const none = phaseFigures(run.engine, endpointAsPhase(phase, item!));
    expect(Object.values(none.stats).every((s) => s === null)).toBe(true);
    expect(none.missing.total).toBe(NOT_MEASURED.noRequests);
    // the endpoint that did get requests keeps its times
    expect(phaseFigures(run.engine, endpointAsPhase(phase, login!)).stats.total).not.toBeNull();

    // the report tables (HTML, PNG, Markdown) and their footnote
    const row = phaseRows(run)[0]!.endpoints.find((e) => e.endpoint === 'item');
    expect(row?.latency).toEqual({ total: null, wait: null, processing: null, serverWait: null, lag: null, ttfb: null, transfer: null });
    expect(timingNotes(run)).toContain(NOT_MEASURED.noRequests);
  });
});
