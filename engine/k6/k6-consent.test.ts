import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempEngine } from '../test-support/temp-engine.js';
import { createScenario } from '../scenario/test-support/factories.js';
import { k6Status } from './k6-binary.js';
import { skipUnless } from '../test-support/skip.js';

// What consent means in a k6 run: a local k6 binary runs a script Loadscope generates, and k6 is only
// ever given addresses on this machine. The question says exactly that (not "sends load outside this
// machine", which a k6 run never does), and a k6 run refused an address outside does not tell a person
// who gave --allow-remote to give it. Nothing here connects outside 127.0.0.1.

const temp = useTempEngine('k6-consent');
const k6 = k6Status();
let readiness: Server | null = null;
afterEach(async () => {
  readiness?.closeAllConnections();
  await new Promise((resolve) => (readiness ? readiness.close(resolve) : resolve(undefined)));
  readiness = null;
});

/** A scenario whose target is 10.1.2.3; its readiness is asked of `ready` (on 127.0.0.1) when given. */
function outside(ready?: string): string {
  return JSON.stringify(createScenario({ servers: [{ architecture: 'external', url: 'http://10.1.2.3:8080', readiness: ready === undefined ? { timeoutMs: 1 } : { url: ready, timeoutMs: 10_000 } }] }));
}

describe('consent with --engine k6', () => {
  it('a target outside this machine, no consent: the question names the local k6 binary, its generated script, the host, and that k6 gets only this machine\'s addresses', async () => {
    const start = temp.engine.handlers['runs:start']({ scenario: { text: outside() }, quick: false, set: {}, engine: 'k6' });
    await expect(start).rejects.toMatchObject({ code: 'LS_ERR_NEEDS_CONSENT' });
    const message = (await start.catch((err: Error) => err.message)) as string;
    expect(message).toBe(
      'this run has a local k6 binary run a script Loadscope generates, sending load to 10.1.2.3; k6 is given only addresses on this machine (127.0.0.0/8, ::1), so each must resolve to one, even with consent; confirm it in the UI or pass --allow-remote',
    );
    // the native question is unchanged: there consent does send outside
    await expect(temp.engine.handlers['runs:start']({ scenario: { text: outside() }, quick: false, set: {} })).rejects.toThrow(/^this scenario sends load outside this machine, to 10\.1\.2\.3; confirm it in the UI or pass --allow-remote$/);
    expect(temp.engine.store.listRuns()).toEqual([]);
  });

  it('consent given, the target an address outside: the k6 run fails saying --allow-remote does not change that, not asking for it', skipUnless(k6.available, k6.hint), async () => {
    readiness = createServer((_req, res) => res.end('ready'));
    await new Promise<void>((resolve) => readiness!.listen(0, '127.0.0.1', resolve));
    const ready = `http://127.0.0.1:${(readiness.address() as AddressInfo).port}/`;
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: outside(ready) }, quick: false, set: {}, engine: 'k6', allowRemote: true });
    await temp.engine.waitForRun(runId);
    const run = await temp.engine.handlers['runs:get']({ runId });
    expect(run.status).toBe('failed');
    expect(run.reason).toMatch(/a k6 run sends load only to this machine \(127\.0\.0\.0\/8, ::1\), even with --allow-remote; refused 10\.1\.2\.3; Loadscope's own driver \(--engine native\) sends there with --allow-remote/);
    expect(run.reason).not.toMatch(/unless you consent/);
  });
});
