import { CompletionContext } from '@codemirror/autocomplete';
import { json } from '@codemirror/lang-json';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { formatDoc } from './doc-path';
import { placeholderCompletion } from './placeholder-complete';

const doc = (flow: boolean) =>
  formatDoc({
    name: 'x',
    servers: [{ architecture: 'single' }],
    data: [{ name: 'users', file: 'u.csv' }],
    phases: [
      {
        executor: 'closed',
        users: 2,
        ...(flow ? { flow: true } : {}),
        data: 'users',
        requests: [
          { name: 'login', method: 'POST', path: '/api/login', body: '{"user": "{{data.user}}", "n": "{{"}', extract: { var: 'token', from: 'json', path: 'token' } },
          { name: 'me', path: '/api/me', headers: { Authorization: 'Bearer {{' } },
        ],
      },
    ],
  });

/** The labels offered with the cursor just after the first `needle` in the text (null: none). */
function offered(text: string, needle: string): string[] | null {
  const pos = text.indexOf(needle) + needle.length;
  const state = EditorState.create({ doc: text, extensions: [json()] });
  const result = placeholderCompletion(new CompletionContext(state, pos, true));
  return result ? result.options.map((o) => o.label) : null;
}

describe('placeholder completion in the code view', () => {
  it("offers an earlier step's extracted var first, the columns the scenario reads, and every built-in", () => {
    const labels = offered(doc(true), 'Bearer {{');
    expect(labels).toEqual(['vars.token', 'data.user', 'counter', 'randomInt 1 100', 'uuid', 'now', 'isoTime', 'user']);
  });

  it('offers no vars to the step that extracts them, nor outside a flow, and nothing outside a string', () => {
    const own = offered(doc(true), '\\"n\\": \\"{{');
    expect(own).toContain('user');
    expect(own).not.toContain('vars.token');
    expect(offered(doc(false), 'Bearer {{')).not.toContain('vars.token');
    expect(offered(doc(true), '"users": 2')).toBeNull();
  });
});
