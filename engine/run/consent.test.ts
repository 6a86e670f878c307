import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../test-support/temp-engine.js';
import { runScenarioSource } from '../library/run-source.js';
import { createScenario } from '../scenario/test-support/factories.js';
import { prepareRun } from './prepare-run.js';

// Consent before anything leaves the machine or runs a command: decided before the run starts, named
// in the refusal (host; argv and cwd), and stored with the run. No test here sends load anywhere.

const temp = useTempEngine('consent');

const remote = (url: string) => JSON.stringify(createScenario({ servers: [{ architecture: 'external', url, readiness: { timeoutMs: 1 } }] }));
const withCommand = JSON.stringify(createScenario({ servers: [{ architecture: 'external', url: 'http://127.0.0.1:9', command: ['touch', 'pwned'], cwd: '/tmp' }] }));
const none = { quick: false, set: {} };

describe('consent', () => {
  it('refuses a target outside this machine unless allowed, naming the host', () => {
    expect(() => prepareRun(temp.engine.store, { text: remote('http://10.1.2.3:8080') }, none)).toThrow(expect.objectContaining({ code: 'LS_ERR_NEEDS_CONSENT', message: expect.stringMatching(/to 10\.1\.2\.3; confirm it in the UI or pass --allow-remote/) }));
    expect(() => prepareRun(temp.engine.store, { text: remote('http://example.com/') }, none)).toThrow(/example\.com/);
    const ok = prepareRun(temp.engine.store, { text: remote('http://10.1.2.3:8080') }, { ...none, consent: { allowRemote: true, allowCommands: false } });
    expect(ok.consent).toEqual({ remoteHosts: ['10.1.2.3'], commands: [], files: [], allowRemote: true, allowCommands: false });
    // Loopback by text needs nothing (the connection is still checked on its address).
    expect(prepareRun(temp.engine.store, { text: remote('http://localhost:9') }, none).consent?.remoteHosts).toEqual([]);
  });

  it("refuses an external server's command unless allowed, showing argv and cwd", () => {
    expect(() => prepareRun(temp.engine.store, { text: withCommand }, none)).toThrow(
      expect.objectContaining({ code: 'LS_ERR_NEEDS_CONSENT', message: expect.stringContaining('["touch","pwned"] in /tmp; confirm them in the UI or pass --allow-commands') }),
    );
    const file = join(temp.dir, 'cmd.json');
    writeFileSync(file, withCommand);
    expect(() => prepareRun(temp.engine.store, { text: withCommand, origin: file }, none)).toThrow(/--allow-commands/);
    expect(prepareRun(temp.engine.store, { text: withCommand, origin: file }, { ...none, consent: { allowRemote: false, allowCommands: true } }).consent?.commands).toEqual([{ argv: ['touch', 'pwned'], cwd: '/tmp' }]);
  });

  it('trusts the commands of a built-in, unless --set changes one', () => {
    expect(prepareRun(temp.engine.store, { name: 'seed-001-rates' }, { quick: false, set: {} }).consent?.commands).toEqual([]);
    expect(() => prepareRun(temp.engine.store, { name: 'seed-001-rates' }, { quick: false, set: { 'servers[4].command': '["sh"]' } })).toThrow(/LS_ERR_NEEDS_CONSENT|--allow-commands/);
  });

  // Regression (issue 23): consent was decided from the --set key's text (/command|cwd/), so a whole
  // server or server list set by a key without those words ran its command unasked, and the stored
  // consent said no command ran. Consent is now decided on the scenario as it will run.
  describe('--set that adds a command under a key not naming it', () => {
    const evil = { label: 'evil', architecture: 'external', url: 'http://127.0.0.1:9', command: ['touch', 'pwned'], cwd: '/tmp', readiness: { timeoutMs: 1 } };
    const single = { label: 'single', architecture: 'single' };
    const sets: [string, Record<string, string>][] = [
      ['servers[4]={...}', { 'servers[4]': JSON.stringify(evil) }],
      ['servers=[...]', { servers: JSON.stringify([single, evil]) }],
      ['servers[4].cwd (the built-in command elsewhere)', { 'servers[4].cwd': '"/tmp"' }],
    ];
    for (const [what, set] of sets) {
      it(`${what}: refused without --allow-commands, listed in the stored consent with it`, async () => {
        const opts = { quick: true, set };
        expect(() => prepareRun(temp.engine.store, { name: 'seed-001-rates' }, opts)).toThrow(expect.objectContaining({ code: 'LS_ERR_NEEDS_CONSENT' }));
        // the UI's runs:start takes the same path
        await expect(temp.engine.handlers['runs:start']({ scenario: { name: 'seed-001-rates' }, ...opts })).rejects.toMatchObject({ code: 'LS_ERR_NEEDS_CONSENT' });
        const allowed = prepareRun(temp.engine.store, { name: 'seed-001-rates' }, { ...opts, consent: { allowRemote: false, allowCommands: true } });
        expect(allowed.consent?.commands.length).toBeGreaterThan(0);
        expect(allowed.consent?.allowCommands).toBe(true);
      });
    }

    it('a stored run of a built-in run again with such a --set is refused too', async () => {
      // a run of the built-in itself, started as the UI and the CLI start it, cancelled once stored
      const { runId } = await temp.engine.handlers['runs:start']({ scenario: { name: 'seed-001-rates' }, quick: true, set: {} });
      await temp.engine.handlers['runs:cancel']({ runId });
      await temp.engine.waitForRun(runId);
      expect(runScenarioSource(temp.engine.store, runId).origin).toEqual({ kind: 'builtin', name: 'seed-001-rates' });
      // run again as it was: the built-in's own command (servers[4], nginx-4k.mjs) is trusted
      const again = prepareRun(temp.engine.store, { runId }, { quick: true, set: {} });
      expect(again.cells[0]!.scenario.servers[4]).toMatchObject({ command: ['node', 'scenarios/assets/nginx-4k.mjs', '18481'] });
      expect(again.consent?.commands).toEqual([]);
      // run again with a --set adding a command: refused, by prepareRun and by runs:start from the wire
      const set = { 'servers[0]': JSON.stringify(evil) };
      expect(() => prepareRun(temp.engine.store, { runId }, { quick: true, set })).toThrow(expect.objectContaining({ code: 'LS_ERR_NEEDS_CONSENT', message: expect.stringContaining('["touch","pwned"] in /tmp') }));
      await expect(temp.engine.handlers['runs:start']({ scenario: { runId }, quick: true, set })).rejects.toMatchObject({ code: 'LS_ERR_NEEDS_CONSENT' });
      expect(temp.engine.store.listRuns()).toHaveLength(1);
    });
  });

  it('runs:start from the wire opens built-in and library scenarios by name only, never a path on the host', async () => {
    const file = join(temp.dir, 'x.json');
    writeFileSync(file, JSON.stringify(createScenario()));
    for (const name of [file, '../scenarios/ui-smoke.json', 'scenarios/ui-smoke.json', '/etc/passwd']) {
      await expect(temp.engine.handlers['runs:start']({ scenario: { name }, quick: true, set: {} }), name).rejects.toMatchObject({ code: 'LS_ERR_SCENARIO_NOT_FOUND' });
    }
    expect(temp.engine.store.listRuns()).toEqual([]);
  });

  it('stores the consent with the run', async () => {
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: remote('http://127.0.0.1:9') }, quick: false, set: {}, allowRemote: true });
    await temp.engine.waitForRun(runId);
    await temp.engine.close();
    const db = new Database(join(temp.dir, 'runs.db'), { readonly: true });
    const row = db.prepare('SELECT consent_json FROM runs WHERE id = ?').pluck().get(runId) as string;
    db.close();
    expect(JSON.parse(row)).toEqual({ remoteHosts: [], commands: [], files: [], allowRemote: true, allowCommands: false, allowFiles: false });
  });
});
