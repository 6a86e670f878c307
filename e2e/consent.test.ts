import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Dialog } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeIntoCodeEditor } from './test-support/code-editor.js';
import { until } from './test-support/poll.js';
import { screenshot } from './test-support/screenshots.js';
import { useWorkbench } from './test-support/workbench.js';

// Consent in the real UI (window.confirm in Chromium, against the real engine's refusal): a target
// outside this machine is confirmed naming the host, an external server's command showing its argv
// and working directory; "no" starts nothing, "yes" runs and the consent is stored with the run.
// The remote target (TEST-NET-1) is only ever declined, and its server could never be reached even
// if the consent were skipped: its command exits at once and readiness waits for a line it never
// prints, so nothing probes or loads the address (a broken consent fails the test, sending nothing
// off this machine). The command that does run is node serving "ok" on a loopback port; it first
// writes a marker file, so "nothing was spawned" is seen directly.

let cwd = '';
let port = 0;
/** what the next consent question is answered */
let answer: 'accept' | 'dismiss' = 'dismiss';
const questions: string[] = [];

const { page, byTestId, host, browser } = useWorkbench({
  onPage: (p) =>
    p.on('dialog', (d: Dialog) => {
      // leaving an edited draft is always fine here; every other question is a consent question
      if (d.message().includes('unsaved changes')) return void d.accept();
      questions.push(d.message());
      void (answer === 'accept' ? d.accept() : d.dismiss());
    }),
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: free } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return free;
}

const SERVE = "require('fs').writeFileSync('spawned', ''); require('http').createServer((q, s) => s.end('ok')).listen(+process.argv[1], '127.0.0.1')";
const argv = () => [process.execPath, '-e', SERVE, String(port)];
const external = (server: Record<string, unknown>) =>
  JSON.stringify({ name: 'consent-e2e', servers: [{ label: 'node-ok', architecture: 'external', ...server }], phases: [{ name: 'few', executor: 'burst', count: 5, requests: [{ path: '/' }] }] }, null, 2);

/** Runs the scenario text from the editor; the consent question (if any) is answered with `answer`. */
async function runFromEditor(text: string): Promise<void> {
  await byTestId('nav-scenarios').click();
  await byTestId('scenarios-view').waitFor();
  if ((await page().locator('.cm-content').count()) === 0) {
    await byTestId('new-scenario').click();
    await page().getByRole('radio', { name: 'Code' }).click();
  }
  await typeIntoCodeEditor(page(), text);
  await page().locator('[data-testid="validation"][data-ok="true"]').waitFor({ timeout: 15_000 });
  await byTestId('editor-run').click();
}

function stored(): { id: number; status: string; consent: unknown }[] {
  const db = new Database(join(host().dataDir, 'runs.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT id, status, consent_json FROM runs ORDER BY id').all() as { id: number; status: string; consent_json: string | null }[];
    return rows.map((r) => ({ id: r.id, status: r.status, consent: r.consent_json === null ? null : JSON.parse(r.consent_json) }));
  } finally {
    db.close();
  }
}

const refusal = (text: string) => byTestId('run-view').getByRole('alert').filter({ hasText: text });

describe('consent before load leaves the machine or a command runs, in Chromium', () => {
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'loadscope-consent-e2e-'));
    port = await freePort();
  });

  afterAll(() => {
    if (cwd !== '') rmSync(cwd, { recursive: true, force: true });
  });

  it('asks before sending load outside this machine, naming the host; "no" starts nothing', async () => {
    answer = 'dismiss';
    await runFromEditor(external({ url: 'http://192.0.2.1:8080', command: [process.execPath, '-e', 'process.exit(3)'], readiness: { line: '^never$', timeoutMs: 1_000 } }));
    await refusal('outside this machine').waitFor({ timeout: 30_000 });
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('this scenario sends load outside this machine, to 192.0.2.1.');
    expect(questions[0]).toContain('Allow this for this run?');
    expect(stored()).toEqual([]);
    await screenshot(page(), 'consent-remote-declined');
  });

  it('asks before running a command, showing argv and working directory; "no" spawns nothing', async () => {
    answer = 'dismiss';
    await runFromEditor(external({ url: `http://127.0.0.1:${port}`, command: argv(), cwd, readiness: { url: `http://127.0.0.1:${port}/`, timeoutMs: 30_000 } }));
    await refusal('runs commands on this machine').waitFor({ timeout: 30_000 });
    expect(questions).toHaveLength(2);
    expect(questions[1]).toContain(`this scenario runs commands on this machine: ${JSON.stringify(argv())} in ${cwd}.`);
    expect(existsSync(join(cwd, 'spawned'))).toBe(false);
    expect(stored()).toEqual([]);
    await screenshot(page(), 'consent-command-declined');
  });

  it('"yes" runs the command and stores the consent with the run', async () => {
    answer = 'accept';
    await runFromEditor(external({ url: `http://127.0.0.1:${port}`, command: argv(), cwd, readiness: { url: `http://127.0.0.1:${port}/`, timeoutMs: 30_000 } }));
    const results = page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]');
    const runId = await until(async () => Number((await results.getAttribute('data-run-id', { timeout: 1_000 }).catch(() => null)) ?? 0), (id) => id > 0, 'the run to finish', 90_000);
    expect(questions).toHaveLength(3);
    expect(questions[2]).toContain(`${JSON.stringify(argv())} in ${cwd}.`);
    expect(existsSync(join(cwd, 'spawned'))).toBe(true);
    expect(stored()).toEqual([{ id: runId, status: 'completed', consent: { remoteHosts: [], commands: [{ argv: argv(), cwd }], files: [], allowRemote: false, allowCommands: true, allowFiles: false } }]);
    await screenshot(page(), 'consent-command-run');
    // the page's only errors are the engine's three consent refusals (two declined, one before the yes)
    const problems = browser().problems;
    expect(problems.filter((p) => p === 'http 403: POST /api/runs:start')).toHaveLength(3);
    expect(problems.filter((p) => !/\b403\b.*\/api\/runs:start/.test(p))).toEqual([]);
  });

  it('asks before reading a file the scenario names (a scenario typed here has no folder of its own), naming it, at 1440 and 1024 px; "no" reads and runs nothing, "yes" runs and stores it', async () => {
    const csv = join(cwd, 'sizes.csv');
    writeFileSync(csv, 'n\n5\n6\n');
    const scenario = JSON.stringify({ name: 'consent-files-e2e', servers: [{ architecture: 'single' }], data: [{ name: 'sizes', file: csv }], phases: [{ name: 'few', executor: 'burst', count: 4, data: 'sizes', requests: [{ path: '/fib?n={{data.n}}' }] }] }, null, 2);
    const before = stored().length;
    const asked = questions.length;
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      answer = 'dismiss';
      await runFromEditor(scenario);
      await refusal('reads files outside its own folder').waitFor({ timeout: 30_000 });
      expect(questions.at(-1)).toContain(`this scenario reads files outside its own folder: ${JSON.stringify(realpathSync(csv))}`);
      expect(stored()).toHaveLength(before);
      await screenshot(page(), `consent-files-declined-${width}`);
    }
    answer = 'accept';
    await runFromEditor(scenario);
    const results = page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]');
    const runId = await until(async () => Number((await results.getAttribute('data-run-id', { timeout: 1_000 }).catch(() => null)) ?? 0), (id) => id > 0, 'the run to finish', 90_000);
    expect(questions.length - asked).toBe(3);
    const run = stored().find((r) => r.id === runId);
    expect(run).toMatchObject({ status: 'completed', consent: { files: [realpathSync(csv)], allowFiles: true } });
    await screenshot(page(), 'consent-files-run');
    await page().setViewportSize({ width: 1280, height: 800 });
  });
});
