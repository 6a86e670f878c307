import { WebSocket } from 'ws';
import { createApi } from '../../../contract/client.js';
import { createHttpWsTransport, type HttpWsTransport } from '../../../contract/transport-http-ws.js';
import type { LoadscopeApi } from '../../../contract/api.js';

/**
 * The browser host's client transport (the same code the renderer runs) over Node's fetch and the ws
 * package: for tests that talk to a running `loadscope ui`.
 */
export function connectNode(baseUrl: string, token: string): { api: LoadscopeApi; transport: HttpWsTransport } {
  const transport = createHttpWsTransport({
    baseUrl,
    token,
    fetch: (url, init) => fetch(url, init),
    openSocket: (url, handlers) => {
      const ws = new WebSocket(url, { origin: baseUrl });
      ws.on('open', () => handlers.onOpen());
      ws.on('message', (data, isBinary) => {
        if (!isBinary) handlers.onMessage(data.toString());
      });
      ws.on('error', () => undefined);
      ws.on('close', () => handlers.onClose());
      return { close: () => ws.close() };
    },
    timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (handle) => clearTimeout(isTimeout(handle) ? handle : undefined) },
    backoff: { initialMs: 50, maxMs: 1_000 },
  });
  return { api: createApi(transport), transport };
}

function isTimeout(handle: unknown): handle is NodeJS.Timeout {
  return typeof handle === 'object' && handle !== null && 'ref' in handle;
}
