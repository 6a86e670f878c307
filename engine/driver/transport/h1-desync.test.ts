import { afterEach, describe, expect, it } from 'vitest';
import { closed, collect, req } from '../test-support/phases.js';
import { startHostileServer, type HostileServer } from '../test-support/hostile-server.js';
import { makeTransport } from '../../../servers/front-transport.js';

// Whole phases in the driver's worker (from dist/: build first) against hostile answers (issue 35):
// a server that follows each answer with a stray 201 no request asked for gets no stored success it
// never sent (the fast path used to read each stray as the next request's answer: 117,187 stored
// 201s), over TCP and inside TLS, and a malformed answer is a 'protocol' error whose reason the
// phase keeps, over the fast path and over undici alike.

let server: HostileServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('hostile answers through a whole phase', () => {
  it.each([
    ['', false],
    [', inside TLS (the fast path over https, issue 42)', true],
  ])('a stray answer after every real one%s: no request stores an answer the server did not send it', async (_over, tls) => {
    server = await startHostileServer('extra-after-body', tls ? { tls: (await makeTransport('h1-tls')).tls! } : {});
    const { result, rows } = await collect(server.url, [closed(4, { count: 400, requests: [req('/k')] })], undefined, tls ? { tls: { insecure: true } } : {});
    const phase = result.phases[0]!.result;
    expect(phase.count).toBe(400);
    // every stored success is a 200 the server sent as an answer; the strays were 201s
    const ok = rows.filter((r) => r.error === null);
    expect(ok.every((r) => r.status === 200)).toBe(true);
    expect(rows.filter((r) => r.status === 201)).toEqual([]);
    expect(phase.ok).toBe(ok.length);
    expect(phase.ok).toBeLessThanOrEqual(server.paths.length);
  });

  it.each([
    ['the fast path', true, 'HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length'],
    ['undici (keepAlive false)', false, 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH: Response body length does not match content-length header'],
  ])('two differing Content-Lengths over %s: every request a protocol error, its reason kept with the phase', async (_path, keepAlive, reason) => {
    server = await startHostileServer('content-length-differing');
    const { result, rows } = await collect(server.url, [closed(2, { count: 40, keepAlive })]);
    const phase = result.phases[0]!.result;
    expect(phase.errors).toEqual(expect.objectContaining({ protocol: 40 }));
    expect(phase.ok).toBe(0);
    expect(rows.every((r) => r.error === 'protocol')).toBe(true);
    expect(phase.errorReasons).toEqual([{ kind: 'protocol', reason, count: 40 }]);
  });
});
