import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Phase } from '../../../contract/scenario.js';
import { nowUs } from '../clock.js';
import { ClientGroup } from '../group.js';
import type { GroupOwner } from '../group-owner.js';
import { PhaseStats, RowSink } from '../measure/stats.js';
import { compileRequests } from '../requests/compiled-request.js';
import type { RequestInputs } from '../requests/request-compile.js';
import { Scheduler } from '../scheduler.js';
import { burst } from '../test-support/phases.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import type { Connection, RequestHandler } from './connection.js';
import { targetOf, type Target } from './target.js';
import { SlotConnections, type TransportContext } from './transport.js';

// Adding a transport takes what docs/architecture.md (The driver's rooms) lists: a Connection, a
// Transport over SlotConnections, its line in transportFor. A toy one, HTTP/1.0 with a connection per
// request, is handed to a real ClientGroup through the same seam transportFor fills, and run against
// a real server: the group's requests, their deadline and their recording need nothing else.

/** HTTP/1.0: one request per connection, the response read to the connection's end (bounded). */
class Http10Connection implements Connection<Buffer> {
  private socket: Socket | null = null;
  private handler: RequestHandler | null = null;

  constructor(
    private readonly target: Target,
    private readonly log: { opened: number; destroyed: number },
  ) {}

  dispatch(request: Buffer, handler: RequestHandler): void {
    const url = new URL(this.target.baseUrl);
    this.handler = handler;
    this.log.opened++;
    const chunks: Buffer[] = [];
    let size = 0;
    const socket = connect({ host: url.hostname, port: Number(url.port), lookup: this.target.lookup });
    this.socket = socket;
    socket.on('connect', () => {
      handler.onConnect();
      socket.write(request);
    });
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 64 * 1024) return this.fail(Object.assign(new Error('response over 64 KB'), { code: 'UND_ERR_HEADERS_OVERFLOW' }));
      chunks.push(chunk);
    });
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => {
      if (this.handler !== handler) return;
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text);
      const body = text.indexOf('\r\n\r\n');
      if (status === null || body < 0) return this.fail(Object.assign(new Error('no HTTP/1.0 response'), { code: 'UND_ERR_SOCKET' }));
      this.handler = null;
      handler.onHeaders(Number(status[1]), []);
      handler.onData(Buffer.from(text.slice(body + 4), 'latin1'));
      handler.onComplete();
    });
  }

  private fail(err: Error): void {
    const handler = this.handler;
    this.handler = null;
    this.socket?.destroy();
    handler?.onError(err);
  }

  close(): void {}

  destroy(): void {
    this.log.destroyed++;
    const handler = this.handler;
    this.handler = null;
    this.socket?.destroy();
    if (handler !== null) process.nextTick(() => handler.onError(Object.assign(new Error('destroyed'), { code: 'UND_ERR_DESTROYED' })));
  }
}

class Http10Transport extends SlotConnections<Buffer> {
  readonly log = { opened: 0, destroyed: 0 };
  private readonly wires: Buffer[];

  constructor(
    private readonly target: Target,
    phase: Phase,
    ctx: TransportContext,
  ) {
    super(compileRequests(phase, ctx.columns, null), 1);
    this.wires = this.requests.map((r) => Buffer.from(`${r.method} ${r.path} HTTP/1.0\r\nhost: ${new URL(target.baseUrl).host}\r\n\r\n`, 'latin1'));
  }

  protected open(): Connection<Buffer> {
    return new Http10Connection(this.target, this.log);
  }

  protected wire(template: number, _inputs: RequestInputs | null): Buffer | null {
    return this.wires[template]!;
  }
}

const errorTotal = (errors: Partial<Record<string, number>>): number => Object.values(errors).reduce((a: number, b) => a + (b ?? 0), 0);

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Runs one client group of `phase` on the toy transport; resolves when the group finishes. */
async function runToy(phase: Phase, url: string): Promise<{ stats: PhaseStats; transport: Http10Transport }> {
  const scheduler = new Scheduler();
  const stats = new PhaseStats(new RowSink(false, () => undefined));
  let transport: Http10Transport | null = null;
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve) => {
      const owner: GroupOwner = { stats, groupFinished: () => resolve() };
      const group = new ClientGroup(0, 0, phase, nowUs(), targetOf({ baseUrl: url }), scheduler, owner, [], undefined, (target, p, ctx) => (transport = new Http10Transport(target, p, ctx)));
      // the phase's deadline check, as run.ts arms it
      timer = setInterval(() => group.expireOverdue(nowUs()), 20);
      group.start();
    });
  } finally {
    clearInterval(timer);
    scheduler.stop();
  }
  return { stats, transport: transport! };
}

describe('a toy transport added through the documented steps', () => {
  it('HTTP/1.0 with a connection per request: every request sent on it, answered and recorded by the real group', async () => {
    server = await startTestServer();
    const versions: string[] = [];
    server.server.on('request', (r: { httpVersion: string }) => versions.push(r.httpVersion));
    const phase = burst(6, '/ok');
    const { stats, transport } = await runToy(phase, server.url);
    const { result } = stats.result(0, phase, 0, nowUs(), false);
    expect(versions).toEqual(Array(6).fill('1.0'));
    expect(server.connections).toBe(6);
    expect(transport.log.opened).toBe(6);
    expect([result.count, errorTotal(result.errors)]).toEqual([6, 0]);
  });

  it('a request that never gets an answer: a timeout at its deadline, its toy connection destroyed', async () => {
    server = await startTestServer();
    const phase = burst(1, '/hang', { timeoutMs: 200 });
    const { stats, transport } = await runToy(phase, server.url);
    const { result } = stats.result(0, phase, 0, nowUs(), false);
    expect(result.count).toBe(1);
    expect([result.errors.timeout, errorTotal(result.errors)]).toEqual([1, 1]);
    expect(transport.log.destroyed).toBe(1);
  });
});
