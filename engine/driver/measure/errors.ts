import { ERROR_CODE } from './raw-rows.js';

// The one place a failed request's error becomes its kind (ERROR_CODE): Node's codes, undici's, and
// the fast path's (which uses the same codes, transport/h1.ts), so every transport counts alike.

/** An error's kind (ERROR_CODE) by its code: Node's, undici's, or the fast path's. */
export function classifyError(err: unknown): number {
  let code = (err as { code?: unknown } | null)?.code;
  if (code === undefined && err instanceof AggregateError) code = (err.errors[0] as { code?: unknown } | undefined)?.code;
  // a response the parser refused: llhttp's HPE_* codes (undici 7 loses its parser error's code, so its class name too)
  if ((typeof code === 'string' && code.startsWith('HPE_')) || (err as { name?: unknown } | null)?.name === 'HTTPParserError') return ERROR_CODE.protocol;
  switch (code) {
    case 'ECONNREFUSED':
      return ERROR_CODE.refused;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return ERROR_CODE.reset;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return ERROR_CODE.timeout;
    // a body that does not match its Content-Length, a head past the parser's bound
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
    case 'UND_ERR_HEADERS_OVERFLOW':
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
