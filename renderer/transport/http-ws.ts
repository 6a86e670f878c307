import { createHttpWsTransport, type HttpWsTransport } from '../../contract/transport-http-ws';

// The browser host's transport with the page's own fetch, WebSocket and timers. The host printed a
// URL with ?token=...; the token is read from there once and kept for the page's life (the address
// bar keeps it too, so a reload works).

export function tokenFromLocation(search: string): string {
  return new URLSearchParams(search).get('token') ?? '';
}

export interface HttpWsStatus {
  /** The event socket is up (false while it reconnects). */
  connected: boolean;
}

export function httpWsTransport(onStatus?: (status: HttpWsStatus) => void): HttpWsTransport {
  return createHttpWsTransport({
    baseUrl: window.location.origin,
    token: tokenFromLocation(window.location.search),
    fetch: (url, init) => window.fetch(url, init),
    openSocket: (url, handlers) => {
      const socket = new WebSocket(url);
      socket.onopen = () => handlers.onOpen();
      socket.onmessage = (event: MessageEvent<unknown>) => {
        if (typeof event.data === 'string') handlers.onMessage(event.data);
      };
      socket.onclose = () => handlers.onClose();
      return { close: () => socket.close() };
    },
    timers: {
      setTimeout: (callback, ms) => window.setTimeout(callback, ms),
      clearTimeout: (handle) => window.clearTimeout(typeof handle === 'number' ? handle : undefined),
    },
    onConnectionChange: (connected) => onStatus?.({ connected }),
    onListenerError: (err) => console.error('loadscope: an event could not be delivered', err),
  });
}
