import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planStart } from '../bin/start-plan.js';

// What `npm start` runs: the window with the engine on the Node that ran it, or the browser host
// with the reason when there is no Electron binary or no display.

const root = '/src/loadscope';
const facts = { root, node: '/usr/bin/node', args: [] as string[] };

describe('npm start', () => {
  it('opens the Electron window, handing it the Node that ran npm (the engine runs on it)', () => {
    const plan = planStart({ ...facts, electron: { binary: '/e/electron' }, platform: 'linux', env: { DISPLAY: ':0' } });
    expect(plan).toEqual({ command: '/e/electron', args: [root], env: { DISPLAY: ':0', LOADSCOPE_NODE: '/usr/bin/node' } });
  });

  it('without the Electron binary: the browser host, opened in the default browser, saying why', () => {
    const plan = planStart({ ...facts, electron: { why: 'the electron package is absent' }, platform: 'linux', env: { DISPLAY: ':0' }, args: ['--port', '5173'] });
    expect(plan).toMatchObject({ command: '/usr/bin/node', args: [join(root, 'bin', 'loadscope.js'), 'ui', '--open', '--port', '5173'] });
    expect(plan.note).toMatch(/^Electron binary not installed .*the electron package is absent.*browser host/);
  });

  it('without a display on Linux: the browser host, not opened, saying why', () => {
    const plan = planStart({ ...facts, electron: { binary: '/e/electron' }, platform: 'linux', env: {} });
    expect(plan).toMatchObject({ command: '/usr/bin/node', args: [join(root, 'bin', 'loadscope.js'), 'ui'] });
    expect(plan.note).toMatch(/^No display \(DISPLAY and WAYLAND_DISPLAY are unset\)/);
    expect(planStart({ ...facts, electron: { binary: '/e/electron' }, platform: 'linux', env: { WAYLAND_DISPLAY: 'wayland-0' } }).command).toBe('/e/electron');
    expect(planStart({ ...facts, electron: { binary: '/e/electron' }, platform: 'darwin', env: {} }).command).toBe('/e/electron');
  });
});
