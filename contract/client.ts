import {
  calls,
  events,
  isEventName,
  type CallName,
  type CallRequest,
  type CallResponse,
  type EventName,
  type EventPayload,
  type LoadscopeApi,
} from './api.js';

/** What a host's wire provides: send a call, receive events. Electron IPC and HTTP+WebSocket both fit. */
export interface Transport {
  invoke(name: CallName, request: unknown): Promise<unknown>;
  /** Every event from the engine; returns the unsubscribe function. */
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

// Seen through mapped types, indexing with a generic name yields that name's own schema (TS #47109).
const responseSchemas: { [N in CallName]: { response: { parse(value: unknown): CallResponse<N> } } } = calls;
const eventSchemas: { [E in EventName]: { parse(value: unknown): EventPayload<E> } } = events;

function parseResponse<N extends CallName>(name: N, raw: unknown): CallResponse<N> {
  return responseSchemas[name].response.parse(raw);
}

function parseEvent<E extends EventName>(event: E, raw: unknown): EventPayload<E> {
  return eventSchemas[event].parse(raw);
}

/**
 * The typed API over any transport. Responses and events are parsed against the contract, so the
 * UI gets exactly the shapes the contract promises (or an error saying which call broke it).
 */
export function createApi(transport: Transport): LoadscopeApi {
  return {
    async invoke<N extends CallName>(name: N, request: CallRequest<N>): Promise<CallResponse<N>> {
      return parseResponse(name, await transport.invoke(name, request));
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
      return transport.subscribe((name, payload) => {
        if (name === event && isEventName(name)) listener(parseEvent(event, payload));
      });
    },
  };
}
