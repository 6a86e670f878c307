import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { ApiError, CALL_NAMES, calls, isCallName } from '../../contract/api.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { startBrowserHost, type BrowserHost } from './browser-host.js';
import { encodeFrame, openRawWs } from './test-support/raw-ws-client.js';

// Property tests against the browser host with the real engine and a real SQLite file: random
// request bodies on every call, and random bytes and frames on the event socket. The host never
// answers 5xx to a malformed request, never dies, and a well-behaved client keeps getting events.

let dir: string;
let engine: Engine;
let host: BrowserHost;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-hostprop-'));
  engine = createEngine({ dbPath: join(dir, 'runs.db') });
  host = await startBrowserHost({ engine, staticDir: join(dir, 'none') });
});
afterAll(async () => {
  await host.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(name: string, body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`http://127.0.0.1:${host.port}/api/${/^[\w:-]+$/.test(name) ? name : encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-loadscope-token': host.token },
    body,
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as unknown };
}

describe('browser host under random input', () => {
  it('random bodies on every call: a 4xx naming the problem (or a 200), never a 5xx', async () => {
    // runs:start is left out: a random body that happened to be valid would start load.
    const names = CALL_NAMES.filter((n) => n !== 'runs:start');
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
      fc.record({ runId: fc.oneof(fc.integer(), fc.double(), fc.string()), text: fc.string(), limit: fc.integer(), format: fc.string(), runIds: fc.array(fc.integer()) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
      fc.string({ unit: 'binary', maxLength: 200 }),
      // an empty request: the calls that take one answer 200, so that branch is checked too
      fc.constant('{}'),
    );
    const seen = { answered: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 20 })), body, async (name, text) => {
        const { status, json } = await call(name, text);
        expect(status, `${name} ${text} -> ${JSON.stringify(json)}`).toBeLessThan(500);
        // every answer is checked: a 200 is the call's own response (by the contract's schema), a
        // refusal names its code and the problem
        if (status === 200) {
          seen.answered++;
          expect(isCallName(name), `200 for an unknown call ${name}`).toBe(true);
          if (isCallName(name)) expect(calls[name].response.safeParse(json).success, `${name} ${text} -> ${JSON.stringify(json).slice(0, 300)}`).toBe(true);
        } else {
          seen.refused++;
          const refusal = ApiError.safeParse(json);
          expect(refusal.success && refusal.data.code.length > 0 && refusal.data.message.length > 0, JSON.stringify(json)).toBe(true);
        }
      }),
      { numRuns: 600, seed: 78 },
    );
    expect(seen.answered, 'some random calls were answered (200)').toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
    // runs:start: malformed shapes only (never a valid scenario)
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (v) => {
        const { status, json } = await call('runs:start', JSON.stringify({ scenario: { text: JSON.stringify(v) ?? 'x' }, quick: true }));
        expect(status).toBeLessThan(500);
        // never started (a run list stays empty below), so always refused with a code and a reason
        expect(ApiError.safeParse(json).success, JSON.stringify(json)).toBe(true);
      }),
      { numRuns: 200, seed: 79 },
    );
    expect(engine.store.listRuns()).toEqual([]);
  });

  it('random bytes and frames on the event socket: only that client is dropped', async () => {
    const good = new WebSocket(`ws://127.0.0.1:${host.port}/events?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}` });
    await new Promise((resolve) => good.once('open', resolve));
    const frame = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
      fc.record({ opcode: fc.integer({ min: 0, max: 15 }), payload: fc.uint8Array({ maxLength: 200 }), fin: fc.boolean(), mask: fc.boolean() }).map((f) =>
        encodeFrame(f.opcode, Buffer.from(f.payload), { fin: f.fin, mask: f.mask }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 4 }), async (frames) => {
        const bad = await openRawWs(host.port, host.token);
        for (const f of frames) bad.socket.write(f);
        bad.socket.end();
        await bad.closed;
      }),
      { numRuns: 150, seed: 90 },
    );
    await vi.waitFor(() => expect(host.clientCount()).toBe(1));
    // The host still serves calls and events.
    expect((await call('runs:list', '{}')).status).toBe(200);
    // The good client's socket is still alive (no event is due, so a ping answers for it).
    await new Promise<void>((resolve, reject) => {
      good.once('pong', () => resolve());
      good.ping();
      setTimeout(() => reject(new Error('no pong')), 10_000).unref();
    });
    expect(good.readyState).toBe(WebSocket.OPEN);
    good.close();
  });
});
