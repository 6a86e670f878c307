import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Prng } from '../driver/arrivals.js';
import { VariableRequest, type RequestInputs } from '../driver/requests/request-compile.js';
import { runScenarioFile, useTempEngine } from '../test-support/temp-engine.js';

// A data or vars value spliced into a JSON body is data (issue 26): inside a JSON string it is
// escaped for JSON, so a quote or backslash in it cannot end the string or add a key; outside a
// string it is a number, true, false or null, or else a JSON string. Against the bundled API's echo
// on a real bundled server, which parses the body and sends it back as it read it.

const HOSTILE = '"}, "admin": true, "x": "\\';
const INJECTING = '", "admin": true, "x": "';
const ID_INJECTING = '1, "admin": true';

const temp = useTempEngine('json-body');
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-json-body-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A phase posting `{"name": <name>, "id": <id>}` to the echo, each row's body expected back as sent. */
function echoPhase(name: string, data: string, row: { name: string; id: string }, id: unknown) {
  const echoed = JSON.stringify({ body: { name: row.name, id } }).slice(1, -1);
  return {
    name,
    executor: 'sequential',
    count: 3,
    data,
    requests: [{ method: 'POST', path: '/api/echo', headers: { 'content-type': 'application/json' }, body: '{"name":"{{data.name}}","id":{{data.id}}}', expect: { status: 200, bodyIncludes: echoed } }],
  };
}

describe('a data value spliced into a JSON body', () => {
  it('reaches a real server as the same string, whatever quotes and backslashes it holds, and adds no key', async () => {
    const rows = [
      { name: HOSTILE, id: '7' },
      { name: INJECTING, id: ID_INJECTING },
    ];
    rows.forEach((row, i) => writeFileSync(join(dir, `row-${i}.jsonl`), `${JSON.stringify(row)}\n`));
    const scenario = {
      name: 'json-body',
      servers: [{ architecture: 'single' }],
      data: rows.map((_, i) => ({ name: `row${i}`, file: `row-${i}.jsonl`, format: 'jsonl', order: 'sequential' })),
      // the first row unescaped is no JSON (a 400); the second is JSON with an "admin" key
      phases: [echoPhase('breaks', 'row0', rows[0]!, 7), echoPhase('injects', 'row1', rows[1]!, ID_INJECTING)],
    };
    const run = await runScenarioFile(temp.engine, join(dir, 'json-body.json'), scenario);
    expect(run.status, run.reason ?? '').toBe('completed');
    expect(run.targets[0]!.phases.map((p) => ({ name: p.name, count: p.count, ok: p.ok }))).toEqual([
      { name: 'breaks', count: 3, ok: 3 },
      { name: 'injects', count: 3, ok: 3 },
    ]);
  });
});

describe('where a body value is JSON', () => {
  const inputs = (row: string[]): RequestInputs => ({ counter: 1, user: 1, row, vars: null, prng: new Prng(1) });
  /** the body undici's path sends, checked to be the fast path's too */
  const bodyOf = (headers: Record<string, string>, body: string, row: string[]): string | undefined => {
    const request = new VariableRequest({ method: 'POST', path: '/', headers, body }, '127.0.0.1', ['v', 'w']);
    const sent = request.parts(inputs(row))!.body?.toString('utf8');
    const bytes = request.build(inputs(row))!.toString('utf8');
    expect(bytes.slice(bytes.indexOf('\r\n\r\n') + 4)).toBe(sent);
    return sent;
  };

  it('decides by the content-type (JSON or +json, any case, with parameters), else by a body that starts with { or [', () => {
    const tpl = '{"a":"{{data.v}}"}';
    const parsed = (headers: Record<string, string>, body = tpl) => JSON.parse(bodyOf(headers, body, [HOSTILE, ''])!) as unknown;
    expect(parsed({ 'Content-Type': 'application/json; charset=utf-8' })).toEqual({ a: HOSTILE });
    expect(parsed({ 'content-type': 'application/vnd.api+json' })).toEqual({ a: HOSTILE });
    expect(parsed({})).toEqual({ a: HOSTILE });
    expect(parsed({}, ' [{{data.v}}, "{{data.v}}"]')).toEqual([HOSTILE, HOSTILE]);
    // a body that is not JSON takes the value as it is
    expect(bodyOf({ 'content-type': 'text/plain' }, 'say {{data.v}}', [HOSTILE, ''])).toBe(`say ${HOSTILE}`);
    expect(bodyOf({ 'content-type': 'text/plain' }, tpl, [HOSTILE, ''])).toBe(`{"a":"${HOSTILE}"}`);
  });

  it('outside a string keeps numbers and literals and quotes the rest; an escaped quote in the fixed text stays in its string', () => {
    const body = (v: string, w: string) => JSON.parse(bodyOf({}, '{"n":{{data.v}},"s":"say \\"{{data.w}}\\" \\\\","t":[{{data.w}}]}', [v, w])!) as unknown;
    expect(body('-1.5e3', 'true')).toEqual({ n: -1500, s: 'say "true" \\', t: [true] });
    expect(body(ID_INJECTING, '\n\u0001\ud800')).toEqual({ n: ID_INJECTING, s: 'say "\n\u0001\ud800" \\', t: ['\n\u0001\ud800'] });
    expect(body('', 'null')).toEqual({ n: '', s: 'say "null" \\', t: [null] });
  });
});
