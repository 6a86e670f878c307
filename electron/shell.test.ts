import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { serveRendererFile } from './app-protocol.js';
import { menuCommands, menuTemplate, type MenuAction, type MenuDeps } from './menu.js';
import { CONTENT_SECURITY_POLICY, webPreferences } from './security.js';
import { skipUnless } from '../engine/test-support/skip.js';

describe('loadscope:// serves the built renderer and nothing else', () => {
  let dir: string;
  beforeAll(() => {
    const base = mkdtempSync(join(tmpdir(), 'loadscope-shell-'));
    dir = join(base, 'renderer');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<title>Loadscope</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'x');
    writeFileSync(join(base, 'secret.txt'), 'secret');
    symlinkSync(join(base, 'secret.txt'), join(dir, 'assets', 'link.txt'));
  });
  afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('answers files with the CSP header', async () => {
    const index = await serveRendererFile(dir, 'loadscope://app/index.html');
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('Loadscope');
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect((await serveRendererFile(dir, 'loadscope://app/')).status).toBe(200);
    const script = await serveRendererFile(dir, 'loadscope://app/assets/app.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('refuses traversal, symlinks out, other hosts', async () => {
    for (const url of ['loadscope://app/%2e%2e/secret.txt', 'loadscope://app/assets/..%2f..%2fsecret.txt', 'loadscope://app/assets/link.txt', 'loadscope://other/index.html']) {
      const res = await serveRendererFile(dir, url);
      expect(res.status, url).toBeGreaterThanOrEqual(400);
      expect(await res.text(), url).not.toBe('secret');
    }
  });
});

describe('the window and the menu', () => {
  it('keeps the renderer isolated and sandboxed', () => {
    expect(webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false });
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
  });

  it('sends each menu action to the page as a ui:menu event', async () => {
    const sent: MenuAction[] = [];
    const deps: MenuDeps = {
      platform: 'linux',
      send: (a) => sent.push(a),
      pickScenarioFile: async () => ({ path: '/tmp/s.json', text: '{}' }),
      reportError: (err) => {
        throw err;
      },
    };
    const template = menuTemplate(deps);
    expect(template.map((m) => m.label ?? m.role)).toEqual(['File', 'editMenu', 'Run', 'viewMenu', 'windowMenu']);
    const labels = template.flatMap((m) => (Array.isArray(m.submenu) ? m.submenu.map((i) => i.label) : []));
    expect(labels).toEqual(expect.arrayContaining(['Open scenario…', 'Export run…', 'Start', 'Cancel']));
    const commands = menuCommands(deps);
    commands.exportRun();
    commands.runStart();
    commands.runCancel();
    commands.openScenario();
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([{ action: 'export' }, { action: 'run-start' }, { action: 'run-cancel' }, { action: 'open-scenario', path: '/tmp/s.json', text: '{}' }]);
  });
});

describe('the preload bundle', () => {
  const bundle = rootPath('dist/electron/preload.cjs');
  it('requires nothing but electron (a sandboxed preload can load nothing else)', skipUnless(existsSync(bundle), `${bundle} is not built (npm run build)`), () => {
    const requires = [...readFileSync(bundle, 'utf8').matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect([...new Set(requires)]).toEqual(['electron']);
  });
});
