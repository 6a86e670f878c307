import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// `loadscope record` refuses before any browser starts, in one line and exit code 2, what it must not
// record: a URL outside this machine without --allow-remote (the journey would send load there), a
// user:password@ hiding the real host, a URL that is not http(s); and with no Chromium to be found it
// names what to install. The "browser" here is a script that leaves a mark when it is started, so a
// refusal that came after launching a browser would show. (Recording itself, in real Chromium:
// e2e/record-cli.test.ts.)

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let fakeChromium: string;
let mark: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-record-cli-'));
  mark = join(dir, 'browser-started');
  fakeChromium = join(dir, 'chromium');
  writeFileSync(fakeChromium, `#!/bin/sh\ntouch '${mark}'\nexit 1\n`);
  chmodSync(fakeChromium, 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function record(args: string[], env: Record<string, string> = { LOADSCOPE_CHROMIUM: fakeChromium }) {
  rmSync(mark, { force: true });
  const out = spawnSync(process.execPath, [BIN, 'record', ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000, input: '', env: { ...process.env, DISPLAY: '', LOADSCOPE_TEST_RECORD_SCRIPT: '', ...env } });
  return { ...out, browserStarted: existsSync(mark) };
}

describe('loadscope record refuses before any browser starts', () => {
  it('a URL outside this machine without --allow-remote: one line naming the host and the flag, no browser, no file', () => {
    const out = record(['http://10.0.0.1:8080/', '--out', 'journey.json']);
    expect(out.status).toBe(2);
    expect(out.stderr).toBe('loadscope: the journey this recording makes sends load outside this machine, to 10.0.0.1; confirm it in the UI or pass --allow-remote (LS_ERR_NEEDS_CONSENT)\n');
    expect(out.browserStarted).toBe(false);
    expect(existsSync(join(dir, 'journey.json'))).toBe(false);
  });

  it('user:password@ hiding the real host (http://127.0.0.1:1@10.0.0.1/): refused even with --allow-remote', () => {
    const out = record(['http://127.0.0.1:1@10.0.0.1/', '--allow-remote']);
    expect(out.status).toBe(2);
    expect(out.stderr).toBe('loadscope: record takes a URL without user:password@ (sign in on the page instead) (LS_ERR_BAD_REQUEST)\n');
    expect(out.browserStarted).toBe(false);
  });

  it('a file: URL: refused in one line', () => {
    const out = record(['file:///etc/shadow']);
    expect(out.status).toBe(2);
    expect(out.stderr).toBe('loadscope: record takes an http(s) URL, not "file:" (LS_ERR_BAD_REQUEST)\n');
    expect(out.browserStarted).toBe(false);
  });

  it('an --out that exists, without --force: refused before the browser opens (nothing recorded for nothing)', () => {
    writeFileSync(join(dir, 'taken.json'), '{}');
    const out = record(['http://127.0.0.1:9/', '--out', 'taken.json']);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('taken.json already exists; pass --force to replace it');
    expect(out.browserStarted).toBe(false);
  });

  it('no Chromium where LOADSCOPE_CHROMIUM points: one line naming what to install', () => {
    const out = record(['http://127.0.0.1:9/'], { LOADSCOPE_CHROMIUM: join(dir, 'no-such-chromium') });
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/^loadscope: LOADSCOPE_CHROMIUM=\S+no-such-chromium is not an executable file; install Chromium \(Debian\/Ubuntu: `apt-get install chromium`\) or set LOADSCOPE_CHROMIUM=\/path\/to\/chromium \(LS_ERR_BROWSER_MISSING\)\n$/);
  });

  it('a Chromium that does not start: one line saying so, exit 2', () => {
    const out = record(['http://127.0.0.1:9/']);
    expect(out.status).toBe(2);
    expect(out.browserStarted).toBe(true);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(/^loadscope: Chromium \(\S+chromium\) did not start: .*\(LS_ERR_BROWSER_MISSING\)$/m);
  });
});
