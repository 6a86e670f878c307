import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../db/test-support/temp-store.js';
import { rootPath } from '../engine/paths.js';

// Hostile recordings at the command line (issue 39): a HAR of 10,000 requests, a secret in every
// header, body and response, a correlation id that was never proposed, a credentials file already
// there. Each refusal is exit 2 and one line with nothing written (neither the scenario nor its
// credentials file); a file already there is replaced only with --force, and then both are; an accepted import puts no secret in the scenario, on stdout or on stderr, only
// in the 0600 credentials file beside it.

const BIN = rootPath('bin/loadscope.js');
const tmp = useTempDir('test');
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', timeout: 120_000 });

const secret = (i: number) => `S3CRET-${i}-${(i * 7919).toString(36)}-zq`;
/** An entry sending a secret in every header, its query and body, and answered with another. */
function entry(i: number) {
  return {
    startedDateTime: new Date(1_700_000_000_000 + i).toISOString(),
    request: {
      method: 'POST',
      url: `http://127.0.0.1:9/api/orders/${i}?api_key=${secret(i)}`,
      headers: [
        { name: 'Content-Type', value: 'application/json' },
        { name: 'Authorization', value: `Bearer ${secret(i + 1)}` },
        { name: 'Cookie', value: `sid=${secret(i + 2)}; pref=${secret(i + 3)}` },
        { name: 'X-Api-Key', value: secret(i + 4) },
        { name: 'X-Session-Id', value: secret(i + 5) },
      ],
      postData: { mimeType: 'application/json', text: JSON.stringify({ login: `user-${i}`, password: secret(i + 6), card: { secret_code: secret(i + 7) } }) },
    },
    response: { status: 200, headers: [{ name: 'Set-Cookie', value: `sid=${secret(i + 8)}` }], content: { mimeType: 'application/json', text: JSON.stringify({ refresh_token: secret(i + 9) }) } },
  };
}
const har = (n: number) => JSON.stringify({ log: { version: '1.2', entries: Array.from({ length: n }, (_, i) => entry(i * 10)) } });
const secretsOf = (n: number) => Array.from({ length: n }, (_, i) => Array.from({ length: 10 }, (_, k) => secret(i * 10 + k))).flat();

/** Refused as bad input: exit 2, one line on stderr matching `reason`, nothing on stdout, no file written. */
function expectRefused(r: ReturnType<typeof cli>, reason: RegExp, before: readonly string[]): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(reason);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(readdirSync(tmp.dir).sort()).toEqual([...before].sort());
}

describe('import-har of hostile recordings', () => {
  it('a recording of 10,000 requests: one line saying a journey holds 256 steps, nothing written, no secret shown', () => {
    writeFileSync(join(tmp.dir, 'big.har'), har(10_000));
    const r = cli('import-har', 'big.har', '--out', 'big.json');
    expectRefused(r, /^loadscope: 10000 requests to 127\.0\.0\.1:9; a journey holds at most 256 steps: record a shorter session/, ['big.har']);
    for (const s of secretsOf(10).concat(secretsOf(10_000).slice(-10))) expect(r.stderr).not.toContain(s);
  });

  it('a secret in every header, query, body and response: none in the scenario, on stdout or stderr; each in the 0600 file beside it', () => {
    writeFileSync(join(tmp.dir, 'secrets.har'), har(25));
    const printed = cli('import-har', 'secrets.har');
    expect(printed.status, printed.stderr).toBe(0);
    const r = cli('import-har', 'secrets.har', '--out', 'orders.json', '--force');
    expect(r.status, r.stderr).toBe(0);
    const text = readFileSync(join(tmp.dir, 'orders.json'), 'utf8');
    const csv = readFileSync(join(tmp.dir, 'orders.credentials.csv'), 'utf8');
    for (const s of secretsOf(25)) {
      for (const shown of [text, r.stdout, r.stderr, printed.stdout, printed.stderr]) expect(shown).not.toContain(s);
    }
    // what was sent is in the file (the answers' secrets were never sent, so they are nowhere)
    const sent = Array.from({ length: 25 }, (_, i) => [0, 1, 2, 3, 4, 5, 6, 7].map((k) => secret(i * 10 + k))).flat();
    for (const s of sent) expect(csv).toContain(s);
    expect(statSync(join(tmp.dir, 'orders.credentials.csv')).mode & 0o777).toBe(0o600);
    expect(cli('validate', 'orders.json').status).toBe(0);
  });

  it('more different credentials than a data file has columns: one line, nothing written, no secret shown', () => {
    writeFileSync(join(tmp.dir, 'many.har'), har(40));
    const r = cli('import-har', 'many.har', '--out', 'many.json');
    expectRefused(r, /^loadscope: the requests send 360 different credentials; a data file holds at most 256 columns: record a shorter session/, ['many.har']);
    for (const s of secretsOf(40)) expect(r.stderr).not.toContain(s);
  });

  it('--correlate naming no proposal, or not a list of ids: one line, nothing written', () => {
    writeFileSync(join(tmp.dir, 'one.har'), har(3));
    expectRefused(cli('import-har', 'one.har', '--out', 'one.json', '--correlate', 'c99'), /^loadscope: --correlate names c99, which is not proposed/, ['one.har']);
    expectRefused(cli('import-har', 'one.har', '--out', 'one.json', '--correlate', 'c1;rm -rf /'), /^loadscope: --correlate takes all, none or proposal ids like c1,c3; not "c1;rm -rf \/"/, ['one.har']);
  });

  it('a credentials file already there: refused before either file is written, unless --force', () => {
    writeFileSync(join(tmp.dir, 'one.har'), har(3));
    writeFileSync(join(tmp.dir, 'one.credentials.csv'), 'mine\n');
    expectRefused(cli('import-har', 'one.har', '--out', 'one.json'), /one\.credentials\.csv already exists; pass --force to replace it/, ['one.har', 'one.credentials.csv']);
    expect(readFileSync(join(tmp.dir, 'one.credentials.csv'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(tmp.dir, 'one.json'))).toBe(false);
    expect(cli('import-har', 'one.har', '--out', 'one.json', '--force').status).toBe(0);
    expect(statSync(join(tmp.dir, 'one.credentials.csv')).mode & 0o777).toBe(0o600);
  });

  it('the scenario file already there: refused before the credentials file is written either', () => {
    writeFileSync(join(tmp.dir, 'one.har'), har(3));
    writeFileSync(join(tmp.dir, 'one.json'), '{}');
    expectRefused(cli('import-har', 'one.har', '--out', 'one.json'), /one\.json already exists; pass --force to replace it/, ['one.har', 'one.json']);
    expect(readFileSync(join(tmp.dir, 'one.json'), 'utf8')).toBe('{}');
  });
});
