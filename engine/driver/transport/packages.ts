import { createRequire } from 'node:module';
import type WebSocket from 'ws';

// The transport room's npm packages, each required when a transport first needs it (issues 41, 42):
// the driver's worker starts at every run, and a run on the fast path (plain http, https) or on
// node:http2 (h2, h2c) never touches undici (~70 ms of CPU to load), ws (~15 ms) or grpc-js (~100 ms,
// ~15 MB). Required, not imported: a transport is chosen inside a synchronous constructor (group.ts)
// and all three are CommonJS. Elsewhere in transport/ these packages are imported for their types
// only (engine/driver/worker-imports.test.ts holds it; worker-modules.test.ts checks a real run).

const require = createRequire(import.meta.url);

/** undici: the HTTP/1.1 transport the fast path does not suit, SSE streams, a try's connection */
export const undici = (): typeof import('undici') => require('undici') as typeof import('undici');

/** ws: WebSocket streams */
export const ws = (): typeof WebSocket => require('ws') as typeof WebSocket;

/** @grpc/grpc-js: gRPC streams */
export const grpcJs = (): typeof import('@grpc/grpc-js') => require('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
