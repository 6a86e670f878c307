import { ERROR_CODE } from './raw-rows.js';

// The one place a failed request's error becomes its kind (ERROR_CODE): Node's codes, undici's, and
// the fast path's (which uses the same codes, transport/h1.ts), so every transport counts alike.

/** An error's kind (ERROR_CODE) by its code: Node's, undici's, or the fast path's. */
export function classifyError(err: unknown): number {
  let code = (err as { code?: unknown } | null)?.code;
  if (code === undefined && err instanceof AggregateError) code = (err.errors[0] as { code?: unknown } | undefined)?.code;
  // a response the parser refused: llhttp's HPE_* codes (undici 7 loses its parser error's code, so its class name too)
  // ws's framing errors (WS_ERR_*: a frame over the session's maxPayload, bad UTF-8, a bad opcode): the peer broke the protocol
  if ((typeof code === 'string' && (code.startsWith('HPE_') || code.startsWith('WS_ERR_'))) || (err as { name?: unknown } | null)?.name === 'HTTPParserError') return ERROR_CODE.protocol;
  switch (code) {
    case 'ECONNREFUSED':
      return ERROR_CODE.refused;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    // node:http2 (transport/node-h2-session.ts): the peer reset the stream, or ended the session with an error code
    case 'ERR_HTTP2_STREAM_ERROR':
    case 'ERR_HTTP2_SESSION_ERROR':
    case 'ERR_HTTP2_GOAWAY_SESSION':
      return ERROR_CODE.reset;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return ERROR_CODE.timeout;
    // a WebSocket upgrade answered with a status other than 101 (transport/ws-session.ts)
    case 'LS_WS_UPGRADE':
      return ERROR_CODE.http;
    // a body that does not match its Content-Length, a head past the parser's bound
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
    case 'UND_ERR_HEADERS_OVERFLOW':
    // nghttp2 refused what the peer sent (a flood of frames, an endless header block), or the stream broke the protocol
    case 'ERR_HTTP2_ERROR':
    case 'LS_H2_PROTOCOL':
      return ERROR_CODE.protocol;
    // a stream's own endings (transport/stream.ts StreamError): cut short, idle, a message over its bound or badly framed, a gRPC status
    case 'LS_STREAM_CUT':
      return ERROR_CODE.stream;
    case 'LS_STREAM_IDLE':
      return ERROR_CODE.idle;
    case 'LS_STREAM_OVER_BOUND':
    case 'LS_STREAM_FRAMING':
      return ERROR_CODE.protocol;
    case 'LS_GRPC_STATUS':
      return ERROR_CODE.grpc;
    default:
      return ERROR_CODE.other;
  }
}
