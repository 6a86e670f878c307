import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeEditorText } from './test-support/code-editor.js';
import { useWorkbench } from './test-support/workbench.js';
import { shots as reviewShots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';

// The editor's "Paste a curl command" (issue 28), in Chromium on the real host: a command copied from
// developer tools (bash quoting, a secret, -k) is parsed by the engine and its request joins the
// scenario being edited, named, valid, with what was left out said; a command that is not curl is one
// line in the dialog and changes nothing.

const SHOTS = '/tmp/shots-i';
const { page, byTestId } = useWorkbench();
const { waitValid } = scenarioEditor(page);

interface Doc {
  phases: { name?: string; requests: { name?: string; method?: string; path: string; headers?: Record<string, string>; body?: string }[] }[];
}

/** The window at 1440 and 1024 px wide, with `show` scrolled to the middle at each width. */
const shots = (name: string, show: Locator): Promise<void> => reviewShots(page(), name, { show, dir: SHOTS });

const COMMAND = [
  "curl 'http://127.0.0.1:8080/api/echo?from=devtools' \\",
  "  -H 'accept: application/json' \\",
  "  -H 'cookie: sid=s3cret' \\",
  "  -H 'content-type: application/json' \\",
  "  --data-raw $'{\"say\":\"it\\'s {{literal}}\\nyes\"}' \\",
  '  --compressed -k',
].join('\n');

describe('Paste a curl command in the editor', () => {
  it('adds the request to the scenario being edited, named, valid, and says what it left out', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await byTestId('paste-curl-open').click();
    await byTestId('curl-command').fill(COMMAND);
    await shots('paste-curl-dialog', byTestId('paste-curl'));
    await byTestId('curl-add').click();

    const added = byTestId('curl-added');
    await added.waitFor();
    expect(await added.innerText()).toContain('Added POST /api/echo?from=devtools to');
    expect(await added.innerText()).toContain('left out secret headers (cookie)');
    expect(await added.innerText()).toContain('TLS verification off (-k/--insecure)');
    expect(await byTestId('paste-curl').count()).toBe(0);
    await waitValid();
    await shots('paste-curl-added', added);

    await page().getByRole('radio', { name: 'Code' }).click();
    const doc = JSON.parse(await codeEditorText(page())) as Doc;
    const request = doc.phases[0]!.requests.at(-1)!;
    expect(request).toEqual({
      name: 'POST /api/echo?from=devtools',
      method: 'POST',
      path: '/api/echo?from=devtools',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'Accept-Encoding': 'deflate, gzip, br, zstd' },
      // taken literally: {{ escaped so it is sent as typed
      body: '{"say":"it\'s \\{{literal}}\nyes"}',
    });
    await page().getByRole('radio', { name: 'Form' }).click();
  });

  it('a command that is not curl is one line in the dialog and changes nothing', async () => {
    await page().getByRole('radio', { name: 'Code' }).click();
    const before = await codeEditorText(page());
    await byTestId('paste-curl-open').click();
    await byTestId('curl-command').fill('wget http://127.0.0.1:8080/\n\u001b[2J');
    await byTestId('curl-add').click();
    const error = byTestId('paste-curl').locator('[role="alert"]');
    await error.waitFor();
    expect(await error.innerText()).toContain('not a curl command: it starts with "wget", not curl');
    await shots('paste-curl-error', byTestId('paste-curl'));
    await page().keyboard.press('Escape');
    expect(await byTestId('paste-curl').count()).toBe(0);
    expect(await codeEditorText(page())).toBe(before);
  });

  it("Start a new scenario: a journey aimed at the command's own server, its token moved out of the text", async () => {
    await byTestId('paste-curl-open').click();
    await byTestId('curl-command').fill("curl 'http://127.0.0.1:4567/api/items/7' -H 'authorization: Bearer t0ken-abcdefgh'");
    const choice = page().getByText('start a new scenario aimed at http://127.0.0.1:4567');
    await choice.waitFor();
    await byTestId('curl-new-scenario').check();
    // the editor holds unsaved changes from before: starting anew asks first
    page().once('dialog', (d) => void d.accept());
    await byTestId('curl-add').click();
    // the notice of the request added before is still up: wait for the dialog to go instead
    await byTestId('paste-curl').waitFor({ state: 'detached' });
    await waitValid();
    expect(await byTestId('scenario-editor-panel').innerText()).toContain('new, from a curl command');
    expect(await byTestId('kept-file-credentials.csv').count()).toBe(1);

    await page().getByRole('radio', { name: 'Code' }).click();
    const text = await codeEditorText(page());
    expect(text).not.toContain('t0ken-abcdefgh');
    const doc = JSON.parse(text) as Doc & { servers: { architecture: string; url: string }[] };
    expect(doc.servers).toEqual([{ architecture: 'external', label: '127.0.0.1:4567', url: 'http://127.0.0.1:4567' }]);
    expect(doc.phases[0]!.requests).toEqual([{ name: 'GET /api/items/{id}', method: 'GET', path: '/api/items/7', headers: { authorization: 'Bearer {{data.token}}' } }]);
    await page().getByRole('radio', { name: 'Form' }).click();
  });
});
