import { basename, dirname } from 'node:path';
import { parseJsonPath, type JsonKey } from '../../contract/extract.js';
import type { RequestTemplate } from '../../contract/scenario.js';
import type { GrpcStream } from '../../contract/stream-grpc.js';
import type { WsStream } from '../../contract/stream-ws.js';
import { grpcMethodOf } from '../grpc-proto.js';

// A stream template (contract/stream.ts) as a k6 plan carries it, for the runtime in
// k6-runtime-stream.ts: a WebSocket session's script and bounds as the native session reads them
// (engine/driver/transport/ws-session.ts), a gRPC call's method, whether it streams, and the .proto
// k6 loads (its folder as k6's import path: k6 reads a bare absolute file name relative to the
// script). Every string stays data; a send is sent as written (natively too: no placeholders).

export interface PlanWsStep {
  send: string | null;
  /** the reply to wait for: text it includes, the text at a JSON path (equal to `equals` when given) */
  expect: { includes: string | null; keys: JsonKey[] | null; equals: string | null } | null;
  ping: boolean;
  timeoutMs: number;
}

export interface PlanWs {
  protocol: 'ws';
  script: PlanWsStep[];
  /** receive until this long after the upgrade (0: close when the script ends) */
  holdMs: number;
  replyTimeoutMs: number;
  idleTimeoutMs: number | null;
  pingEveryMs: number | null;
  maxMessages: number;
  maxMessageBytes: number;
}

export interface PlanGrpc {
  protocol: 'grpc';
  /** k6's import path and the file in it (the .proto was made absolute when the run was prepared) */
  protoDir: string;
  protoFile: string;
  /** 'package.Service/Method', as k6 names it */
  method: string;
  streaming: boolean;
  messages: number | null;
  holdMs: number | null;
  maxMessageBytes: number;
}

export type PlanStream = PlanWs | PlanGrpc;

function planWs(ws: WsStream): PlanWs {
  return {
    protocol: 'ws',
    script: ws.script.map((s) => {
      const keys = s.expect?.path === undefined ? null : parseJsonPath(s.expect.path);
      return {
        send: s.send ?? null,
        // the schema refused a path that does not parse; one that slipped through matches nothing, as natively
        expect: s.expect === undefined ? null : { includes: s.expect.includes ?? null, keys: typeof keys === 'string' ? [] : keys, equals: s.expect.equals ?? null },
        ping: s.ping === true,
        timeoutMs: s.timeoutMs ?? ws.replyTimeoutMs,
      };
    }),
    holdMs: ws.durationMs ?? 0,
    replyTimeoutMs: ws.replyTimeoutMs,
    idleTimeoutMs: ws.idleTimeoutMs ?? null,
    pingEveryMs: ws.pingEveryMs ?? null,
    maxMessages: ws.maxMessages,
    maxMessageBytes: ws.maxMessageBytes,
  };
}

function planGrpc(path: string, grpc: GrpcStream): PlanGrpc {
  const method = path.slice(1);
  // validation found the method already; a file that changed since streams as it now says
  const found = grpcMethodOf(grpc.proto, method);
  return {
    protocol: 'grpc',
    protoDir: dirname(grpc.proto),
    protoFile: basename(grpc.proto),
    method,
    streaming: 'method' in found && found.method.streaming,
    messages: grpc.messages ?? null,
    holdMs: grpc.durationMs ?? null,
    maxMessageBytes: grpc.maxMessageBytes,
  };
}

/** A template's stream as the plan carries it, or null for a plain HTTP request (SSE is refused before: k6-carry.ts). */
export function planStream(r: RequestTemplate): PlanStream | null {
  if (r.stream?.protocol === 'ws') return planWs(r.stream);
  if (r.stream?.protocol === 'grpc') return planGrpc(r.path, r.stream);
  return null;
}
