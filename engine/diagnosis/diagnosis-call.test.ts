import { describe, expect, it } from 'vitest';
import { Diagnosis } from '../../contract/diagnosis.js';
import { LoadscopeError } from '../../contract/errors.js';
import { dispatchCall } from '../host/api-dispatch.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { diagnose } from './index.js';

// The UI's way to a stored run's diagnosis (issue 38's What happened panel): `runs:diagnosis`, the
// engine's call, answers what `show --why` prints for the same run (the rules over the run as the
// read side gives it back), in the contract's shape, and a run that is not stored is one clear line.

const temp = useTempEngine('diagnosis-call', 'all');

describe('runs:diagnosis', () => {
  it('a stored run asking a path the server lacks: the call answers the rules over what was stored, early-errors among them', async () => {
    const scenario = { name: 'dx-call-404', servers: [{ architecture: 'single' }], phases: [{ executor: 'closed', name: 'misconfigured', users: 2, count: 40, requests: [{ path: '/no-such-path' }] }] };
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
    await temp.engine.waitForRun(runId);
    const answered = await dispatchCall(temp.engine.handlers, 'runs:diagnosis', { runId });
    const run = await temp.engine.handlers['runs:get']({ runId });
    expect(answered).toEqual(diagnose({ run, ...(await temp.engine.handlers['runs:windows']({ runId })) }));
    // what the renderer's client parses it with
    const parsed = Diagnosis.parse(answered);
    expect(parsed.findings.map((f) => f.rule)).toContain('early-errors');
    expect(parsed.healthy).toBe(false);
  });

  it('a run id that is not stored: refused with LS_ERR_RUN_NOT_FOUND, one line naming the run', async () => {
    const err = await dispatchCall(temp.engine.handlers, 'runs:diagnosis', { runId: 99_999 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LoadscopeError);
    expect((err as LoadscopeError).code).toBe('LS_ERR_RUN_NOT_FOUND');
    expect((err as LoadscopeError).message).toMatch(/^[^\n]*99999[^\n]*$/);
  });

  it('a request that is not a run id: refused before the engine reads anything (LS_ERR_BAD_REQUEST, with the path)', async () => {
    const err = await dispatchCall(temp.engine.handlers, 'runs:diagnosis', { runId: '1; DROP TABLE runs' }).catch((e: unknown) => e);
    expect((err as LoadscopeError).code).toBe('LS_ERR_BAD_REQUEST');
    expect((err as LoadscopeError).message).toMatch(/runId/);
  });
});
