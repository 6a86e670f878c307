import { createRequire } from 'node:module';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { nowMs } from './clock.js';
import type { Dispatcher } from './dispatcher.js';
import { MAX_FIB_N } from './work-request.js';

// The bundled gRPC service, loadscope.Bench (scenarios/examples/grpc-bench.proto), served by the
// same h2 / h2c front as the HTTP routes, so every architecture that serves HTTP/2 answers it where
// it runs its work: Fib goes through the architecture's dispatcher as /fib does; Ticks streams
// `count` ticks `gap_ms` apart from the front (a held stream costs the front, not a worker). Over
// HTTP/1.1 there is no gRPC (it needs HTTP/2 trailers): such a front never sees one.
//
//   request:  POST /loadscope.Bench/<Method>, content-type application/grpc, one frame:
//             [compressed 0][length: uint32 BE][message]   (at most MAX_GRPC_REQUEST bytes)
//   answer:   200, content-type application/grpc, frames, then trailers grpc-status (grpc-message)

export const GRPC_SERVICE_PREFIX = '/loadscope.Bench/';
const MAX_GRPC_REQUEST = 64 * 1024;
const MAX_TICKS = 1_000_000;
const MAX_TICK_GAP_MS = 60_000;
const MAX_TICK_SIZE = 1024 * 1024;

// the service as protobufjs JSON: the front needs no file at run time; servers/grpc-front.test.ts holds it to the example's .proto
const u32 = (id: number) => ({ type: 'uint32', id });
const rpc = (requestType: string, responseType: string, responseStream = false) => ({ requestType, responseType, responseStream, comment: '' });
const benchDefinition = () => (createRequire(import.meta.url)('@grpc/proto-loader') as typeof import('@grpc/proto-loader')).fromJSON({
  nested: {
    loadscope: {
      nested: {
        Bench: { methods: { Fib: rpc('FibRequest', 'FibReply'), Ticks: rpc('TicksRequest', 'Tick', true) } },
        FibRequest: { fields: { n: u32(1) } },
        FibReply: { fields: { n: u32(1), value: { type: 'string', id: 2 } } },
        TicksRequest: { fields: { count: u32(1), gap_ms: u32(2), size: u32(3) } },
        Tick: { fields: { seq: u32(1), sent_ms: { type: 'double', id: 2 }, pad: { type: 'bytes', id: 3 } } },
      },
    },
  },
}, { keepCase: true, defaults: true });

interface MethodCodec {
  requestDeserialize(bytes: Buffer): object;
  responseSerialize(value: object): Buffer;
}
type Methods = Record<'Fib' | 'Ticks', MethodCodec>;
// proto-loader (and protobufjs) loaded at a front's first gRPC call: a server that never sees one does not pay for it
let loaded: Methods | undefined;
const methodsOf = (): Methods => (loaded ??= benchDefinition()['loadscope.Bench'] as unknown as Methods);

/** gRPC status codes the front answers with (grpc's numbering). */
const STATUS = { OK: 0, CANCELLED: 1, INVALID_ARGUMENT: 3, RESOURCE_EXHAUSTED: 8, UNIMPLEMENTED: 12, INTERNAL: 13 } as const;

export function isGrpcRequest(req: Http2ServerRequest): boolean {
  return req.headers['content-type']?.startsWith('application/grpc') === true;
}

function frame(message: Buffer): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
}

function finish(res: Http2ServerResponse, status: number, message = ''): void {
  if (res.stream.destroyed) return;
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/grpc' });
  res.addTrailers({ 'grpc-status': String(status), ...(message !== '' && { 'grpc-message': encodeURIComponent(message) }) });
  res.end();
}

/** The request's one message, or the status that refuses it. */
function readMessage(req: Http2ServerRequest): Promise<Buffer | { status: number; message: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_GRPC_REQUEST) chunks.push(chunk);
    });
    req.on('error', () => resolve({ status: STATUS.CANCELLED, message: 'the request stream failed' }));
    req.on('end', () => {
      if (size > MAX_GRPC_REQUEST) return resolve({ status: STATUS.RESOURCE_EXHAUSTED, message: `request over ${MAX_GRPC_REQUEST} bytes` });
      const body = Buffer.concat(chunks);
      if (body.length < 5 || body.readUInt32BE(1) !== body.length - 5) return resolve({ status: STATUS.INTERNAL, message: 'expected one length-prefixed message' });
      if (body[0] !== 0) return resolve({ status: STATUS.UNIMPLEMENTED, message: 'compressed messages are not supported' });
      resolve(body.subarray(5));
    });
  });
}

function bounded(value: unknown, max: number): number | null {
  const n = Number(value ?? 0);
  return Number.isInteger(n) && n >= 0 && n <= max ? n : null;
}

async function fib(dispatcher: Dispatcher, message: Buffer, res: Http2ServerResponse): Promise<void> {
  const { n } = methodsOf().Fib.requestDeserialize(message) as { n?: number };
  const valid = bounded(n, MAX_FIB_N);
  if (valid === null) return finish(res, STATUS.INVALID_ARGUMENT, `n must be 0 to ${MAX_FIB_N}`);
  const done = await dispatcher.dispatch({ kind: 'fib', n: valid }, nowMs());
  if (done.result.status !== 200) return finish(res, STATUS.INTERNAL, String(done.result.body).split('\n')[0]);
  const { value } = JSON.parse(String(done.result.body)) as { value: number };
  res.writeHead(200, { 'content-type': 'application/grpc' });
  res.write(frame(methodsOf().Fib.responseSerialize({ n: valid, value: String(value) })));
  finish(res, STATUS.OK);
}

function ticks(message: Buffer, res: Http2ServerResponse): void {
  const request = methodsOf().Ticks.requestDeserialize(message) as { count?: number; gap_ms?: number; size?: number };
  const count = bounded(request.count, MAX_TICKS);
  const gap = bounded(request.gap_ms, MAX_TICK_GAP_MS);
  const size = bounded(request.size, MAX_TICK_SIZE);
  if (count === null || gap === null || size === null) return finish(res, STATUS.INVALID_ARGUMENT, `count at most ${MAX_TICKS}, gap_ms at most ${MAX_TICK_GAP_MS}, size at most ${MAX_TICK_SIZE}`);
  const pad = Buffer.alloc(size, 0x2e);
  res.writeHead(200, { 'content-type': 'application/grpc' });
  let seq = 0;
  const timer = setInterval(() => {
    if (res.stream.destroyed) return clearInterval(timer);
    // a client that does not read holds the next tick back: the front buffers at most one (a bound, not a backlog)
    if (res.stream.writableNeedDrain) return;
    if (seq >= count) {
      clearInterval(timer);
      return finish(res, STATUS.OK);
    }
    seq++;
    res.write(frame(methodsOf().Ticks.responseSerialize({ seq, sent_ms: nowMs(), pad })));
  }, Math.max(1, gap));
  res.stream.once('close', () => clearInterval(timer));
}

/** Answers one gRPC call; never rejects (a failure is a status). */
export async function handleGrpc(dispatcher: Dispatcher, req: Http2ServerRequest, res: Http2ServerResponse): Promise<void> {
  const path = req.url ?? '';
  const method = path.startsWith(GRPC_SERVICE_PREFIX) ? path.slice(GRPC_SERVICE_PREFIX.length) : '';
  if (method !== 'Fib' && method !== 'Ticks') {
    req.resume();
    return finish(res, STATUS.UNIMPLEMENTED, `unknown method ${path.slice(0, 80)} (loadscope.Bench has Fib and Ticks)`);
  }
  const message = await readMessage(req);
  if (!Buffer.isBuffer(message)) return finish(res, message.status, message.message);
  try {
    if (method === 'Fib') await fib(dispatcher, message, res);
    else ticks(message, res);
  } catch (err) {
    finish(res, STATUS.INTERNAL, (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'failed');
  }
}
