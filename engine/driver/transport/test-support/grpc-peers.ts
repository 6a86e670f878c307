import { Server, ServerCredentials, ServerInterceptingCall, status, type ServerInterceptor, type ServerUnaryCall, type ServerWritableStream, type sendUnaryData } from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';
import { HealthImplementation, protoPath as HEALTH_PROTO } from 'grpc-health-check';

// gRPC servers on 127.0.0.1 for the gRPC transport's tests, made with grpc-js's own Server: hostile
// peers (one that never answers, one whose reply is huge, one whose stream never ends, one that fails
// every call with a status) and grpc-health-check's Health service, a server no one here wrote,
// with a count of the calls it took (a server interceptor: the server's own count).

export const PEER_PATHS = {
  never: '/hostile.Peer/Never',
  huge: '/hostile.Peer/Huge',
  endless: '/hostile.Peer/Endless',
  denied: '/hostile.Peer/Denied',
} as const;

/** The peers' service as a .proto a scenario names (the same as the JSON below). */
export const HOSTILE_PROTO = `syntax = "proto3";
package hostile;
service Peer {
  rpc Never (Blob) returns (Blob);
  rpc Huge (Blob) returns (Blob);
  rpc Endless (Blob) returns (stream Blob);
  rpc Denied (Blob) returns (Blob);
}
message Blob { bytes data = 1; }
`;

const rpc = (responseStream = false) => ({ requestType: 'Blob', responseType: 'Blob', responseStream, comment: '' });
const peerDefinition = fromJSON({
  nested: {
    hostile: {
      nested: {
        Peer: {
          methods: {
            Never: rpc(),
            Huge: rpc(),
            Endless: rpc(true),
            Denied: rpc(),
          },
        },
        Blob: { fields: { data: { type: 'bytes', id: 1 } } },
      },
    },
  },
});

export interface GrpcPeer {
  readonly url: string;
  /** calls the server took (its own count) */
  readonly calls: () => number;
  /** messages the endless stream wrote */
  readonly endlessWritten: () => number;
  /** the Health service, when started with it */
  readonly health: HealthImplementation | null;
  close(): Promise<void>;
}

/** A reply of `hugeBytes` bytes from Huge; Never holds every call; Endless writes until cancelled; Denied answers PERMISSION_DENIED. */
export async function startGrpcPeer(options: { hugeBytes?: number; withHealth?: boolean } = {}): Promise<GrpcPeer> {
  let calls = 0;
  let written = 0;
  const counting: ServerInterceptor = (_method, call) => {
    calls++;
    return new ServerInterceptingCall(call);
  };
  const server = new Server({ interceptors: [counting] });
  const held: ServerUnaryCall<unknown, unknown>[] = [];
  server.addService(peerDefinition['hostile.Peer'] as never, {
    Never: (call: ServerUnaryCall<unknown, unknown>) => {
      held.push(call);
    },
    Huge: (_call: ServerUnaryCall<unknown, unknown>, reply: sendUnaryData<{ data: Buffer }>) => reply(null, { data: Buffer.alloc(options.hugeBytes ?? 8 * 1024 * 1024, 1) }),
    Endless: (call: ServerWritableStream<unknown, { data: Buffer }>) => {
      const message = { data: Buffer.alloc(1024, 2) };
      const pump = (): void => {
        while (!call.cancelled && !call.destroyed) {
          written++;
          if (!call.write(message)) return void call.once('drain', pump);
        }
      };
      pump();
    },
    Denied: (_call: ServerUnaryCall<unknown, unknown>, reply: sendUnaryData<unknown>) => reply({ code: status.PERMISSION_DENIED, details: 'no entry' }),
  });
  let health: HealthImplementation | null = null;
  if (options.withHealth === true) {
    health = new HealthImplementation({ '': 'SERVING' });
    health.addToServer(server);
  }
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => calls,
    endlessWritten: () => written,
    health,
    close: () => new Promise<void>((resolve) => {
      server.forceShutdown();
      resolve();
    }),
  };
}

export { HEALTH_PROTO };
