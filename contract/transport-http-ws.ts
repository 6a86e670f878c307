import { z } from 'zod';
import { ApiError, type CallName } from './api.js';
import type { Transport } from './client.js';
import { fromApiError, LoadscopeError } from './errors.js';

// The browser host's wire, client side: calls are POST /api/<call name> with the JSON request and
// the per-start token in the x-loadscope-token header; events arrive on one WebSocket at
// /events?token=..., each a JSON { event, payload }. The socket reconnects with backoff while anyone
// listens (events sent while it is down are lost; views refetch what they show).
//
// It lives in contract/ because it is pure: fetch, the WebSocket and timers are passed in, so the
// renderer (with the DOM's) and the host's tests (with Node's fetch and the ws package) run the same
// code. No Node, no DOM here.

export interface FetchResponseLike {
  readonly ok: boolean;
  readonly status: number;
  text(): Promise<string>;
}
export type FetchLike = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string },
) => Promise<FetchResponseLike>;

export interface SocketHandlers {
  onOpen(): void;
  onMessage(data: string): void;
  /** After an error too: the transport treats every close the same way. */
  onClose(): void;
}
/** Opens a WebSocket and forwards its life to the handlers (adapts the DOM's or the ws package's). */
export type OpenSocket = (url: string, handlers: SocketHandlers) => { close(): void };

export interface TimersLike {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface HttpWsTransportOptions {
  /** 'http://127.0.0.1:PORT' (no trailing slash) */
  baseUrl: string;
  token: string;
  fetch: FetchLike;
  openSocket: OpenSocket;
  timers: TimersLike;
  /** Reconnect delays: initial, doubled after every failed attempt up to max. */
  backoff?: { initialMs: number; maxMs: number };
  /** The event socket went up or down (for a "reconnecting" badge). */
  onConnectionChange?: (connected: boolean) => void;
  /** A listener threw or a message was not a { event, payload } (never breaks the other listeners). */
  onListenerError?: (err: unknown) => void;
}

export interface HttpWsTransport extends Transport {
  /** Closes the event socket and stops reconnecting. */
  close(): void;
}

const EventMessage = z.object({ event: z.string(), payload: z.unknown() });

async function readError(response: FetchResponseLike): Promise<LoadscopeError> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parsed = ApiError.safeParse(body);
  if (parsed.success) return fromApiError(parsed.data);
  return new LoadscopeError(response.status === 401 ? 'LS_ERR_UNAUTHORIZED' : 'LS_ERR_INTERNAL', `the Loadscope host answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
}

export function createHttpWsTransport(options: HttpWsTransportOptions): HttpWsTransport {
  const { baseUrl, token, timers } = options;
  const backoff = options.backoff ?? { initialMs: 250, maxMs: 5_000 };
  const listeners = new Set<(event: string, payload: unknown) => void>();
  let socket: { close(): void } | undefined;
  let reconnectTimer: unknown;
  let delay = backoff.initialMs;
  let closed = false;

  function deliver(data: string): void {
    let message: z.infer<typeof EventMessage>;
    try {
      message = EventMessage.parse(JSON.parse(data));
    } catch (err) {
      options.onListenerError?.(err);
      return;
    }
    for (const listener of [...listeners]) {
      try {
        listener(message.event, message.payload);
      } catch (err) {
        options.onListenerError?.(err);
      }
    }
  }

  function connect(): void {
    if (closed || socket || listeners.size === 0) return;
    const wsUrl = `${baseUrl.replace(/^http/, 'ws')}/events?token=${encodeURIComponent(token)}`;
    let opened = false;
    const current = options.openSocket(wsUrl, {
      onOpen: () => {
        opened = true;
        delay = backoff.initialMs;
        options.onConnectionChange?.(true);
      },
      onMessage: deliver,
      onClose: () => {
        if (socket !== current) return;
        socket = undefined;
        if (opened) options.onConnectionChange?.(false);
        scheduleReconnect();
      },
    });
    socket = current;
  }

  function scheduleReconnect(): void {
    if (closed || listeners.size === 0 || reconnectTimer !== undefined) return;
    reconnectTimer = timers.setTimeout(() => {
      reconnectTimer = undefined;
      connect();
    }, delay);
    delay = Math.min(delay * 2, backoff.maxMs);
  }

  function disconnect(): void {
    if (reconnectTimer !== undefined) timers.clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    const current = socket;
    socket = undefined;
    current?.close();
  }

  return {
    async invoke(name: CallName, request: unknown): Promise<unknown> {
      let response: FetchResponseLike;
      try {
        response = await options.fetch(`${baseUrl}/api/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-loadscope-token': token },
          body: request === undefined ? '' : JSON.stringify(request),
        });
      } catch (err) {
        throw new LoadscopeError('LS_ERR_INTERNAL', `cannot reach the Loadscope host at ${baseUrl}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!response.ok) throw await readError(response);
      const text = await response.text();
      return text === '' ? undefined : JSON.parse(text);
    },
    subscribe(listener) {
      listeners.add(listener);
      connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) disconnect();
      };
    },
    close() {
      closed = true;
      listeners.clear();
      disconnect();
    },
  };
}
