import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { prepareRun } from './prepare-run.js';

// Files a run reads outside its scenario's folder need consent, as load elsewhere and commands do
// (engine/run/consent-files.ts): what a data file holds can leave as request paths and bodies, so a
// shared scenario naming ../x, a CSV beside it that is a symlink to a secret, a tls.key elsewhere, a
// scenario typed in the UI (no folder of its own) naming any path, or --set on a built-in pointing
// at one, is refused naming each file's real path until the person agrees, and the stored consent
// lists them. Nothing is read before that. A real engine and files in a temp folder.

const temp = useTempEngine('consent-files');
let dir = '';
let project = '';
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'loadscope-consent-files-')));
  project = join(dir, 'project');
  mkdirSync(project);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const none = { quick: false, set: {} };
const allowFiles = { ...none, consent: { allowRemote: false, allowCommands: false, allowFiles: true } };
const phases = [{ executor: 'burst', count: 1, data: 'users', requests: [{ path: '/u/{{data.user}}' }] }];
const withData = (file: string) => JSON.stringify({ name: 'files', servers: [{ architecture: 'single' }], data: [{ name: 'users', file }], phases });

/** The scenario written into the project folder, started as `loadscope run <file>` starts it. */
function fromProject(text: string) {
  const file = join(project, 'scenario.json');
  writeFileSync(file, text);
  return { text, origin: file };
}

const refusal = (files: string[]) => `this scenario reads files outside its own folder: ${files.map((f) => JSON.stringify(f)).join(', ')}; confirm them in the UI or pass --allow-files`;

describe('files read outside the scenario folder', () => {
  it('a data file at ../outside.csv: refused naming its real path until allowed; the stored consent lists it', () => {
    writeFileSync(join(dir, 'outside.csv'), 'user\nroot\n');
    const source = fromProject(withData('../outside.csv'));
    expect(() => prepareRun(temp.engine.store, source, none)).toThrow(expect.objectContaining({ code: 'LS_ERR_NEEDS_CONSENT', message: refusal([join(dir, 'outside.csv')]) }));
    expect(prepareRun(temp.engine.store, source, allowFiles).consent?.files).toEqual([join(dir, 'outside.csv')]);
  });

  it('a CSV beside the scenario that is a symlink to a secret elsewhere: listed as the file it leads to', () => {
    writeFileSync(join(dir, 'shadow'), 'root:*:20228:0:99999:7:::\n');
    symlinkSync(join(dir, 'shadow'), join(project, 'users.csv'));
    expect(() => prepareRun(temp.engine.store, fromProject(withData('users.csv')), none)).toThrow(refusal([join(dir, 'shadow')]));
  });

  it('tls.cert and tls.key outside the folder: both listed, before either is read', () => {
    writeFileSync(join(dir, 'client.pem'), 'cert');
    writeFileSync(join(dir, 'client.key'), 'key');
    const text = JSON.stringify({
      name: 'files',
      servers: [{ architecture: 'external', url: 'https://127.0.0.1:1', tls: { cert: '../client.pem', key: join(dir, 'client.key') } }],
      phases: [{ executor: 'burst', count: 1, requests: [{ path: '/' }] }],
    });
    expect(() => prepareRun(temp.engine.store, fromProject(text), none)).toThrow(refusal([join(dir, 'client.key'), join(dir, 'client.pem')]));
  });

  it("a scenario typed in the UI (no folder) naming an absolute path: the UI's runs:start is refused naming it", async () => {
    writeFileSync(join(dir, 'users.csv'), 'user\nada\n');
    await expect(temp.engine.handlers['runs:start']({ scenario: { text: withData(join(dir, 'users.csv')) }, quick: false, set: {} })).rejects.toMatchObject({
      code: 'LS_ERR_NEEDS_CONSENT',
      message: refusal([join(dir, 'users.csv')]),
    });
  });

  it('--set on a built-in pointing a data file outside: listed (a built-in is trusted for its own files only)', () => {
    writeFileSync(join(dir, 'users.csv'), 'user\nada\n');
    const set = { data: JSON.stringify([{ name: 'users', file: join(dir, 'users.csv') }]) };
    expect(() => prepareRun(temp.engine.store, { name: 'seed-001-rates' }, { quick: true, set })).toThrow(refusal([join(dir, 'users.csv')]));
  });

  it("files beside the scenario, in its subfolder, and the package's own (the journey example's ../assets): nothing to consent to", () => {
    mkdirSync(join(project, 'data'));
    writeFileSync(join(project, 'users.csv'), 'user\nada\n');
    writeFileSync(join(project, 'data', 'more.csv'), 'user\nbob\n');
    const text = JSON.stringify({ name: 'files', servers: [{ architecture: 'single' }], data: [{ name: 'users', file: 'users.csv' }, { name: 'more', file: 'data/more.csv' }], phases });
    expect(prepareRun(temp.engine.store, fromProject(text), none).consent?.files).toEqual([]);
    const journey = rootPath('scenarios/examples/journey.json');
    expect(prepareRun(temp.engine.store, { text: readFileSync(journey, 'utf8'), origin: journey }, none).consent?.files).toEqual([]);
  });
});
