import { describe, expect, it } from 'vitest';
import { dispatchCall } from '../host/api-dispatch.js';
import { rejection } from '../host/test-support/api-cases.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { base64, loginScenario, storedKept, usersCsv } from './test-support/kept-files.js';

// Data files kept with a library scenario, fed what a person or a page should never manage to store:
// a 100 MB upload, a binary file, text that is not UTF-8, a name that climbs out with ../, a CSV
// holding a password that does not parse, and bundles carrying each. Every one gets one line naming
// the file (never a byte of it: data files hold credentials) and the store holds nothing after it.

const temp = useTempEngine('kept-hostile');
const SECRET = 'hunter2-do-not-print';

/** The refusal's message, after checking it is one line and that nothing was stored. */
async function refused(promise: Promise<unknown>): Promise<string> {
  const err = await rejection(promise);
  const message = err instanceof Error ? err.message : String(err);
  expect(message).not.toContain('\n');
  expect(message).not.toContain(SECRET);
  expect(storedKept(temp.dbPath)).toEqual({ blobs: 0, links: 0 });
  expect(temp.engine.store.library.list()).toEqual([]);
  return message;
}

const upload = (name: string, content: string | Buffer) => temp.engine.handlers['library:upload-data']({ name, base64: base64(content) });

describe('hostile data files kept with a library scenario', () => {
  it('a 100 MB upload: refused by the size its base64 says before it is decoded, and by the call schema at the door', async () => {
    const hundredMb = 'A'.repeat(Math.ceil((100 * 1024 * 1024) / 3) * 4);
    expect(await refused(temp.engine.handlers['library:upload-data']({ name: 'big.csv', base64: hundredMb }))).toBe(
      `big.csv is ${(hundredMb.length / 4) * 3} bytes; a data file kept with a library scenario may have at most 2 MiB`,
    );
    // its size is the first thing looked at: a tail that is not base64 is never reached
    expect(await refused(temp.engine.handlers['library:upload-data']({ name: 'big.csv', base64: `${hundredMb.slice(4)}!!!!` }))).toMatch(/^big\.csv is \d+ bytes; /);
    const door = await rejection(dispatchCall(temp.engine.handlers, 'library:upload-data', { name: 'big.csv', base64: hundredMb }));
    expect(door).toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
    expect(storedKept(temp.dbPath)).toEqual({ blobs: 0, links: 0 });
    // just over the bound: the engine's own line
    expect(await refused(upload('users.csv', Buffer.alloc(2 * 1024 * 1024 + 1, 'a')))).toBe('users.csv is 2097153 bytes; a data file kept with a library scenario may have at most 2 MiB');
  });

  it('a binary file, and text that is not UTF-8: refused in one line', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.from(SECRET)]);
    expect(await refused(upload('logo.csv', png))).toBe('logo.csv is binary (it holds NUL bytes), not CSV or JSON-lines text');
    expect(await refused(upload('latin1.csv', Buffer.from([0x75, 0x73, 0x65, 0x72, 0x0a, 0xe9, 0x0a])))).toBe('latin1.csv is not UTF-8 text');
  });

  it('a name with ../, an absolute name, a dot file: refused before a byte is looked at', async () => {
    expect(await refused(upload('../../etc/passwd', usersCsv()))).toBe("'../../etc/passwd' cannot be kept: a kept file is named without . or .. (it is a name in the library, not a place on the disk)");
    expect(await refused(upload('/etc/passwd', usersCsv()))).toBe("'/etc/passwd' cannot be kept: a kept file is named by a relative path (no drive, no leading / or \\)");
    expect(await refused(upload('.env', usersCsv()))).toMatch(/^'\.env' cannot be kept: a kept file is named with letters/);
  });

  it('a CSV holding a password that does not parse, and one with no rows: the line says where, never the value', async () => {
    expect(await refused(upload('users.csv', `user,password\nada,"${SECRET}\n`))).toBe('users.csv: not a CSV: line 2 opens a quoted field that is never closed');
    expect(await refused(upload('users.jsonl', `{"user":"ada","password":"${SECRET}"\n`))).toBe('users.jsonl: line 1 is not JSON');
    expect(await refused(upload('users.csv', 'user,password\n'))).toBe('users.csv has no rows below its header');
  });

  it('bundles: binary, oversized or climbing files, a wrong shape or no JSON: the import is refused in one line and stores nothing', async () => {
    const bundle = (files: { name: string; text: string }[], scenario: object = loginScenario()) => JSON.stringify({ loadscopeBundle: 1, scenario, files });
    const imp = (text: string) => temp.engine.handlers['library:import']({ text, source: 'x.bundle.json' });
    expect(await refused(imp(bundle([{ name: 'users.csv', text: `user\u0000${SECRET}\n` }])))).toBe('users.csv is binary (it holds NUL bytes), not CSV or JSON-lines text');
    expect(await refused(imp(bundle([{ name: 'users.csv', text: 'x'.repeat(3 * 1024 * 1024) }])))).toBe('users.csv is 3145728 bytes; a data file kept with a library scenario may have at most 2 MiB');
    expect(await refused(imp(bundle([{ name: '../users.csv', text: usersCsv() }])))).toMatch(/^'\.\.\/users\.csv' cannot be kept/);
    expect(await refused(imp(bundle([{ name: 'users.csv', text: usersCsv() }, { name: 'users.csv', text: usersCsv() }])))).toBe("x.bundle.json: two data files are named 'users.csv'");
    expect(await refused(imp(`{"loadscopeBundle": 1, "scenario": {}, "files": [{"name": "a.csv", "text": "${SECRET}"}`))).toBe('x.bundle.json: the bundle is not JSON');
    expect(await refused(imp(JSON.stringify({ loadscopeBundle: 1, scenario: loginScenario(), files: 'users.csv' })))).toMatch(/^x\.bundle\.json: not a scenario bundle: files: /);
    // a valid bundle whose scenario does not use its file's columns: the scenario's issue, nothing stored
    const wrongColumns = await rejection(imp(bundle([{ name: 'users.csv', text: `id\n${SECRET}\n` }])));
    expect(String((wrongColumns as Error).message)).toContain("phases[0].requests[0].body: no column 'user' in data 'logins'");
    expect(String((wrongColumns as Error).message)).not.toContain(SECRET);
    expect(storedKept(temp.dbPath)).toEqual({ blobs: 0, links: 0 });
  });

  it('a save naming a content that was never uploaded: refused in one line, nothing stored', async () => {
    const text = JSON.stringify(loginScenario());
    expect(await refused(temp.engine.handlers['library:save']({ text, files: [{ name: 'users.csv', hash: 'a'.repeat(64) }] }))).toBe(
      'users.csv was uploaded but is no longer stored (an upload not saved is kept for a day): upload it again',
    );
  });
});
