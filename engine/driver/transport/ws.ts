import type { Phase } from '../../../contract/scenario.js';
import { WS_UPGRADE_OWNED_HEADERS } from '../../../contract/stream-names.js';
import type { WsStream } from '../../../contract/stream-ws.js';
import type { MessageHandler } from './connection.js';
import type { StreamOpener, StreamRequest, StreamSession } from './stream.js';
import type { Target } from './target.js';
import type { TransportContext } from './transport.js';
import { runWsSession, type WsSessionSpec } from './ws-session.js';

// WebSocket streams (issue 41, part W) as the stream transport's opener (stream.ts): each stream is
// one session (ws-session.ts) towards the Target, ws:// for http and wss:// for https with the run's
// TLS options, its lookup the run's guarded one. The handler hears the send (onConnect), the upgrade
// (onHeaders 101: its ttfb is the connect time), each message with the round trip of the send it
// answers, each message sent, then the end. A session's own endings are the stream kinds:
//
//   the session ends with             the stream fails as
//   a reply / upgrade past its wait   idle      (LS_STREAM_IDLE)
//   the server closing it early       stream    (LS_STREAM_CUT)
//   more than maxMessages             protocol  (LS_STREAM_OVER_BOUND)
//   a frame over maxMessageBytes      protocol  (ws's WS_ERR_UNSUPPORTED_MESSAGE_LENGTH)
//   an upgrade answered non-101       http      (LS_WS_UPGRADE)
//   the phase's timeoutMs             timeout   (the group's deadline: stream.ts expire)

function upgradeHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!WS_UPGRADE_OWNED_HEADERS.has(name.toLowerCase())) out[name] = value;
  return out;
}

/** The session a stream request asks for: the template's path on the target, its ws block's script and bounds. */
function wsSessionSpec(target: Target, request: StreamRequest, ws: WsStream): WsSessionSpec {
  // the path is appended to the target's origin, never resolved against it: a path like //host/x
  // (or one a placeholder filled) must not name another host than the one the run consented to
  const origin = new URL(target.baseUrl).origin;
  const url = (origin.startsWith('https:') ? 'wss:' : 'ws:') + origin.slice(origin.indexOf('//')) + request.path;
  return {
    url,
    headers: upgradeHeaders(request.headers),
    tls: target.tls,
    lookup: target.lookup,
    connectTimeoutMs: ws.replyTimeoutMs,
    replyTimeoutMs: ws.replyTimeoutMs,
    steps: ws.script,
    holdMs: ws.durationMs ?? 0,
    ...(ws.idleTimeoutMs !== undefined && { gapLimitMs: ws.idleTimeoutMs }),
    ...(ws.pingEveryMs !== undefined && { pingEveryMs: ws.pingEveryMs }),
    maxPayload: ws.maxMessageBytes,
    maxMessages: ws.maxMessages,
  };
}

/** The opener of a client group's WebSocket streams (index.ts streamOpenerFor). */
export function wsOpener(target: Target, _phase: Phase, _ctx: TransportContext): StreamOpener {
  const open = new Set<AbortController>();
  return {
    open(request: StreamRequest, handler: MessageHandler): StreamSession {
      const ws = request.stream as WsStream;
      const stop = new AbortController();
      let cut: Error | null = null;
      let done = false;
      open.add(stop);
      handler.onConnect();
      const observer = {
        onOpen: () => void handler.onHeaders(101, []),
        onMessage: (bytes: number, rttMs: number) => handler.onMessage(bytes, rttMs * 1000),
        // a ping keeps the session alive within its deadline; a pong is no message, its time not a figure
        onPong: () => undefined,
        onSent: () => handler.onMessageSent(),
      };
      void runWsSession(wsSessionSpec(target, request, ws), observer, stop.signal).then((err) => {
        open.delete(stop);
        if (done) return;
        done = true;
        if (cut !== null) handler.onError(cut);
        else if (err !== null) handler.onError(err);
        else handler.onComplete();
      });
      return {
        destroy(err: Error): void {
          if (done || cut !== null) return;
          cut = err;
          stop.abort();
        },
      };
    },
    close(): void {
      for (const stop of open) stop.abort();
      open.clear();
    },
  };
}
