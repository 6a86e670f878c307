import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { findBrowser, INSTALL_HINT, NoBrowserError, type BrowserLookup } from './test-support/find-browser.js';

// The browser lookup behind `npm test`'s e2e project: explicit path, usual places, installing one
// where the machine allows it, and one clear line where nothing works.

function lookup(over: Partial<BrowserLookup> & { present?: string[] }): BrowserLookup & { said: string[] } {
  const present = new Set(over.present ?? []);
  const said: string[] = [];
  return {
    env: {},
    locations: ['/usr/bin/chromium', '/usr/bin/google-chrome'],
    isExecutable: (path) => present.has(path),
    installs: [],
    say: (line) => said.push(line),
    ...over,
    said,
  };
}

function failure(l: BrowserLookup): string {
  try {
    findBrowser(l);
  } catch (err) {
    expect(err).toBeInstanceOf(NoBrowserError);
    return (err as Error).message;
  }
  throw new Error('findBrowser found a browser');
}

describe('browser lookup', () => {
  it('takes LOADSCOPE_CHROMIUM first, over the usual places', () => {
    expect(findBrowser(lookup({ env: { LOADSCOPE_CHROMIUM: '/opt/mine/chrome' }, present: ['/opt/mine/chrome', '/usr/bin/chromium'] }))).toBe('/opt/mine/chrome');
  });

  it('refuses an explicit path that is not there rather than quietly using another browser', () => {
    const message = failure(lookup({ env: { LOADSCOPE_CHROMIUM: '/nope/chrome' }, present: ['/usr/bin/chromium'] }));
    expect(message).toContain('LOADSCOPE_CHROMIUM=/nope/chrome');
    expect(message).not.toContain('\n');
  });

  it('finds the first usual location that holds an executable', () => {
    expect(findBrowser(lookup({ present: ['/usr/bin/google-chrome'] }))).toBe('/usr/bin/google-chrome');
  });

  it('installs one when none is found, saying so first, and uses what the install left', () => {
    const present: string[] = [];
    const l = lookup({});
    l.isExecutable = (path) => present.includes(path);
    l.installs = [
      { what: 'trying a way that fails', run: () => false },
      { what: 'installing chromium', run: () => (present.push('/usr/bin/chromium'), true) },
    ];
    expect(findBrowser(l)).toBe('/usr/bin/chromium');
    expect(l.said).toEqual(['e2e: no Chromium found; trying a way that fails', 'e2e: no Chromium found; installing chromium']);
  });

  it('fails with one line naming what to install when nothing is found and nothing can be installed', () => {
    const l = lookup({ installs: [{ what: 'apt-get', run: () => true }] });
    const message = failure(l);
    expect(message).toMatch(/^e2e: no Chromium found/);
    expect(message).toContain(INSTALL_HINT);
    expect(message).not.toContain('\n');
  });

  it('does not install when LOADSCOPE_BROWSER_INSTALL=never', () => {
    let tried = false;
    failure(lookup({ env: { LOADSCOPE_BROWSER_INSTALL: 'never' }, installs: [{ what: 'x', run: () => (tried = true) }] }));
    expect(tried).toBe(false);
  });

  it('fails every e2e test that needs a browser with the one line, and the run exits non-zero', async () => {
    // the real runner on the real e2e project, with a browser path that does not exist
    const child = spawn(process.execPath, [rootPath('node_modules/vitest/vitest.mjs'), 'run', '--project', 'e2e', 'e2e/workbench.test.ts'], {
      cwd: rootPath('.'),
      env: { ...process.env, LOADSCOPE_CHROMIUM: '/nonexistent/chromium', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code, output).not.toBe(0);
    expect(output).toContain(`e2e: LOADSCOPE_CHROMIUM=/nonexistent/chromium is not an executable file; ${INSTALL_HINT}`);
    expect(output).not.toMatch(/✓|passed/);
  });
});
