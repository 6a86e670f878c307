import { describe, expect, it } from 'vitest';
import { Prng } from '../arrivals.js';
import { compileH1 } from '../test-support/compile-h1.js';
import { fixedTemplate, isVariable, VariableRequest, type RequestInputs } from './request-compile.js';
import { burst, req } from '../test-support/phases.js';

// The compiled form against the prebuilt one: given the values, a template with placeholders builds
// byte for byte what the fast path prebuilds for the same text, Content-Length included.

const inputs = (row: string[] | null, vars: Map<string, string> | null = null): RequestInputs => ({ counter: 7, user: 3, row, vars, prng: new Prng(1) });

describe('request-compile', () => {
  it('builds the bytes the prebuilt path writes for the same text (head, headers, UTF-8 body, Content-Length)', () => {
    const base = 'http://127.0.0.1:8080';
    const variable = req('/a/{{counter}}?u={{user}}&d={{data.id}}', { method: 'POST', headers: { 'x-t': 'Bearer {{vars.token}}' }, body: '{"n":"{{data.name}}","c":{{counter}}}' });
    const fixed = req('/a/7?u=3&d=42', { method: 'POST', headers: { 'x-t': 'Bearer tok' }, body: '{"n":"zoë","c":7}' });
    const [compiled] = compileH1(burst(1, '/', { requests: [variable] }), base, ['id', 'name'])!;
    const [prebuilt] = compileH1(burst(1, '/', { requests: [fixed] }), base)!;
    expect(compiled!.variable).not.toBeNull();
    expect(prebuilt!.variable).toBeNull();
    const built = compiled!.variable!.build(inputs(['42', 'zoë'], new Map([['token', 'tok']])))!;
    expect(built.toString('latin1')).toBe(prebuilt!.bytes.toString('latin1'));
    expect(built.toString('latin1')).toContain('content-length: 18\r\n');
  });

  it('GET without a body has no Content-Length; a missing variable or column is empty', () => {
    const r = new VariableRequest({ method: 'GET', path: '/x/{{vars.none}}/{{data.gone}}', headers: {} }, 'h:1', ['id']);
    expect(r.build(inputs(['1']))!.toString()).toBe('GET /x// HTTP/1.1\r\nhost: h:1\r\n\r\n');
  });

  it('undici gets the same path, headers and body', () => {
    const r = new VariableRequest({ method: 'PUT', path: '/u/{{data.id}}', headers: { 'x-c': '{{counter}}' }, body: 'é{{user}}' }, null, ['id']);
    const parts = r.parts(inputs(['a b/c']));
    expect(parts).toEqual({ path: '/u/a%20b%2Fc', headers: { 'x-c': '7' }, body: Buffer.from('é3') });
  });

  it('a template whose only braces are escaped is fixed, sent with the escape removed', () => {
    const t = req('/x', { body: '\\{{not a placeholder}}' });
    expect(isVariable(t)).toBe(false);
    expect(fixedTemplate(t).body).toBe('{{not a placeholder}}');
    const [prebuilt] = compileH1(burst(1, '/', { requests: [{ ...t, method: 'POST' }] }), 'http://127.0.0.1:1')!;
    expect(prebuilt!.bytes.toString()).toMatch(/content-length: 21\r\n\r\n\{\{not a placeholder\}\}$/);
  });

  it('a lone surrogate in a value (an extracted "\\ud800") is sent as U+FFFD in the path, not thrown', () => {
    const r = new VariableRequest({ method: 'GET', path: '/{{vars.v}}', headers: {} }, 'h', []);
    expect(r.build(inputs(null, new Map([['v', 'a\ud800b\u{1f600}']])))!.toString()).toBe('GET /a%EF%BF%BDb%F0%9F%98%80 HTTP/1.1\r\nhost: h\r\n\r\n');
  });

  it('randomInt stays within its range and follows the seed', () => {
    const r = new VariableRequest({ method: 'GET', path: '/{{randomInt -2 2}}', headers: {} }, null, []);
    const draw = (seed: number) => Array.from({ length: 200 }, () => Number(r.parts({ ...inputs(null), prng: prngs.get(seed)! })!.path.slice(1)));
    const prngs = new Map([[5, new Prng(5)]]);
    const a = draw(5);
    prngs.set(5, new Prng(5));
    expect(draw(5)).toEqual(a);
    expect(new Set(a)).toEqual(new Set([-2, -1, 0, 1, 2]));
  });
});
