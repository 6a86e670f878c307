import { afterEach, describe, expect, it } from 'vitest';
import type { Phase } from '../../../contract/scenario.js';
import type { DataSet } from './phase-inputs.js';
import { burst, closed, collect, rate, req, sequential } from '../test-support/phases.js';
import { startRecorder, type Recorder } from '../test-support/recorder.js';

// Placeholders and data rows as they go over the wire: the driver in its worker thread (from dist/)
// against a recording server on 127.0.0.1, on the fast path and on undici's (keepAlive: false).

let target: Recorder | null = null;
afterEach(async () => {
  await target?.close();
  target = null;
});

const users = (order: DataSet['order'], n = 5): DataSet => ({
  name: 'users',
  order,
  columns: ['id', 'name'],
  rows: Array.from({ length: n }, (_, i) => [`u${i + 1}`, `name ${i + 1}`]),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const everyKind = req('/items/{{counter}}?r={{randomInt 5 7}}&who={{data.name}}', {
  method: 'POST',
  headers: { 'x-id': '{{uuid}}', 'x-user': '{{user}}', 'x-now': '{{now}}', 'x-lit': '\\{{not}}' },
  body: '{"at":"{{isoTime}}","id":"{{data.id}}","name":"{{data.name}}","v":"{{vars.token}}"}',
});

describe('placeholders on the wire', () => {
  for (const keepAlive of [true, false]) {
    it(`each kind is substituted, Content-Length fits the body (${keepAlive ? 'fast path' : 'undici'})`, async () => {
      target = await startRecorder();
      const before = Date.now();
      const phase: Phase = { ...sequential(6), keepAlive, data: 'users', requests: [everyKind] };
      const { result } = await collect(target.url, [phase], undefined, { data: [users('sequential')] });
      const after = Date.now();
      expect(result.phases[0]!.result.ok).toBe(6);
      const got = target.requests;
      expect(got.map((r) => r.url.split('?')[0])).toEqual(['/items/1', '/items/2', '/items/3', '/items/4', '/items/5', '/items/6']);
      // a data value in the path is one query value: the space is encoded
      expect(got.map((r) => new URL(r.url, 'http://x').searchParams.get('who'))).toEqual(['name 1', 'name 2', 'name 3', 'name 4', 'name 5', 'name 1']);
      expect(got.every((r) => r.url.includes('&who=name%201') || r.url.includes('&who=name%20'))).toBe(true);
      for (const r of got) {
        const rnd = Number(new URL(r.url, 'http://x').searchParams.get('r'));
        expect(rnd >= 5 && rnd <= 7 && Number.isInteger(rnd)).toBe(true);
        expect(r.headers['x-id']).toMatch(UUID);
        expect(r.headers['x-user']).toBe('1');
        expect(r.headers['x-lit']).toBe('{{not}}');
        const now = Number(r.headers['x-now']);
        expect(now >= before && now <= after).toBe(true);
        const body = JSON.parse(r.body) as { at: string; id: string; name: string; v: string };
        expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
        expect(Date.parse(body.at) >= before - 1 && Date.parse(body.at) <= after).toBe(true);
        expect(body.v).toBe('');
        expect(`name ${body.id.slice(1)}`).toBe(body.name);
      }
      expect(new Set(got.map((r) => r.headers['x-id'])).size).toBe(6);
    });
  }

  it('{{user}} numbers the sending slots across client groups; a UTF-8 body keeps its byte length', async () => {
    target = await startRecorder();
    const phase: Phase = { ...closed(3, { count: 30, clients: 2 }), requests: [req('/u', { method: 'PUT', headers: { 'x-user': '{{user}}' }, body: 'é{{counter}}€' })] };
    const { result } = await collect(target.url, [phase]);
    expect(result.phases[0]!.result.ok).toBe(60);
    expect(new Set(target.requests.map((r) => r.headers['x-user']))).toEqual(new Set(['1', '2', '3', '4', '5', '6']));
    for (const r of target.requests) expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
    expect(new Set(target.requests.map((r) => r.body)).size).toBe(60);
  });

  for (const keepAlive of [true, false]) {
    it(`a hostile data value cannot add a header or a request: CR LF in a header value is a space, in the path it is encoded (${keepAlive ? 'fast path' : 'undici'})`, async () => {
      target = await startRecorder();
      const evil: DataSet = { name: 'd', order: 'sequential', columns: ['v'], rows: [['a\r\nx-injected: 1\r\n\r\nGET /smuggled HTTP/1.1']] };
      const phase: Phase = { ...burst(1), keepAlive, data: 'd', requests: [req('/p/{{data.v}}', { headers: { 'x-v': '{{data.v}}' } })] };
      const { result } = await collect(target.url, [phase], undefined, { data: [evil] });
      expect(result.phases[0]!.result.ok).toBe(1);
      expect(target.requests).toHaveLength(1);
      const [r] = target.requests;
      expect(r!.headers['x-injected']).toBeUndefined();
      expect(r!.headers['x-v']).toBe('a  x-injected: 1    GET /smuggled HTTP/1.1');
      expect(decodeURIComponent(r!.url.slice(3))).toBe('a\r\nx-injected: 1\r\n\r\nGET /smuggled HTTP/1.1');
    });
  }
});

describe('data orders', () => {
  const ids = (t: Recorder): string[] => t.requests.map((r) => r.url.slice(3));

  it('sequential: rows in file order, shared by client groups, again from the top', async () => {
    target = await startRecorder();
    const phase: Phase = { ...sequential(12, '/', { clients: 2 }), data: 'users', requests: [req('/u/{{data.id}}')] };
    await collect(target.url, [phase], undefined, { data: [users('sequential')] });
    const times = new Map<string, number>();
    for (const id of ids(target)) times.set(id, (times.get(id) ?? 0) + 1);
    // 2 groups x 12 requests over 5 rows, one cursor: rows 1-4 five times, row 5 four times
    expect(Object.fromEntries(times)).toEqual({ u1: 5, u2: 5, u3: 5, u4: 5, u5: 4 });
  });

  it('unique: every row exactly once, then the phase ends early and says so', async () => {
    target = await startRecorder();
    const phase: Phase = { ...closed(4, { count: 1000, clients: 2 }), name: 'login', data: 'users', requests: [req('/u/{{data.id}}')] };
    const { result } = await collect(target.url, [phase, burst(2, '/after')], undefined, { data: [users('unique', 50)] });
    const seen = ids(target).filter((p) => p.startsWith('u'));
    expect(seen).toHaveLength(50);
    expect(new Set(seen).size).toBe(50);
    expect(result.phases[0]!.result.count).toBe(50);
    expect(result.phases[0]!.note).toBe("phase 'login' ended early: data 'users' (order unique) ran out after its 50 rows");
    // the next phase still runs
    expect(result.phases[1]!.result.ok).toBe(2);
    expect(result.phases[1]!.note).toBeUndefined();
  });

  it('unique in an open-loop phase: arrivals after the last row are not sent and not counted', async () => {
    target = await startRecorder();
    const phase: Phase = { ...rate(400, 1000, '/'), data: 'users', requests: [req('/u/{{data.id}}')] };
    const { result } = await collect(target.url, [phase], undefined, { data: [users('unique', 20)] });
    expect(ids(target).sort()).toEqual(users('unique', 20).rows.map((r) => r[0]!).sort());
    expect(result.phases[0]!.result.count).toBe(20);
    expect(result.phases[0]!.note).toMatch(/ran out after its 20 rows/);
  });

  it('random: drawn from the seed, the same rows in the same order again', async () => {
    const run = async (seed: number): Promise<string[]> => {
      target = await startRecorder();
      const phase: Phase = { ...rate(200, 200, '/', { seed, maxInFlight: 1 }), data: 'users', requests: [req('/u/{{data.id}}')] };
      await collect(target.url, [phase], undefined, { data: [users('random', 1000)] });
      const got = ids(target);
      await target.close();
      target = null;
      return got;
    };
    const a = await run(7);
    const b = await run(7);
    const c = await run(8);
    expect(a.length).toBeGreaterThan(10);
    expect(b.slice(0, 10)).toEqual(a.slice(0, 10));
    expect(c.slice(0, 10)).not.toEqual(a.slice(0, 10));
  });
});
