import type { ServiceError } from '@grpc/grpc-js';
import { MAX_REASON_CHARS } from '../../../contract/error-kinds.js';
import { STREAM_ERROR_CODES } from './stream.js';

// A gRPC call that ended with a status other than OK, as an error measure/errors.ts classifies like
// every transport's: what is the connection's (a refused connect, a drop, a deadline) carries the
// code an HTTP transport gives the same event, a message over the bound a stream's (a 'protocol'
// error), and a status the server answered with the 'grpc' kind (the HTTP status's analogue), its
// name first in the reason: "grpc NOT_FOUND: <the server's details>".

/** gRPC's status codes by number (fixed by the gRPC spec, doc/statuscodes.md); their own table so the driver loads grpc-js only for a gRPC phase */
const NAMES = ['OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS', 'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED'] as const;
export const GRPC_STATUS = Object.fromEntries(NAMES.map((name, code) => [name, code])) as Readonly<Record<(typeof NAMES)[number], number>>;

function grpcStatusName(code: number): string {
  return NAMES[code] ?? `STATUS_${code}`;
}

function codeOf(err: ServiceError): string {
  const details = err.details ?? '';
  switch (err.code) {
    case GRPC_STATUS.DEADLINE_EXCEEDED:
      return 'ETIMEDOUT';
    case GRPC_STATUS.UNAVAILABLE:
      // grpc-js says why the channel failed only in the details
      return /ECONNREFUSED|connect ECONN|No connection established/i.test(details) && !/ECONNRESET/i.test(details) ? 'ECONNREFUSED' : 'ECONNRESET';
    case GRPC_STATUS.RESOURCE_EXHAUSTED:
      // the client refused a message over its bound (grpc.max_receive_message_length)
      return /larger than max/i.test(details) ? STREAM_ERROR_CODES.overBound : STREAM_ERROR_CODES.grpc;
    default:
      return STREAM_ERROR_CODES.grpc;
  }
}

/** One line: the status's name and the server's details, cut to a reason's bound. */
export function grpcCallError(err: ServiceError): Error {
  const line = `grpc ${grpcStatusName(err.code)}: ${(err.details ?? '').split('\n')[0] ?? ''}`.slice(0, MAX_REASON_CHARS);
  return Object.assign(new Error(line), { code: codeOf(err) });
}
