import { z } from 'zod';
import { ApiError, type CallName, type CallRequest, type CallResponse, type LoadscopeApi } from './api.js';
import type { Transport } from './client.js';
import { fromApiError, isErrorCode, LoadscopeError, toApiError } from './errors.js';

// Electron's wire, both halves' shared vocabulary and the preload half. The main process registers
// one ipcMain.handle per call on `loadscope:call:<name>` and answers with an outcome, never a throw:
// ipcRenderer.invoke reduces a thrown error to a message with a prefix, losing its code. Events come
// on one channel as { event, payload }.
//
// Pure TypeScript (the preload's ipcRenderer is passed in), so the preload bundle and the tests that
// drive the real main-process wiring share this code.

export const IPC_EVENT_CHANNEL = 'loadscope:event';
export const IPC_CALL_PREFIX = 'loadscope:call:';
export function ipcCallChannel(name: CallName): string {
  return IPC_CALL_PREFIX + name;
}

export const IpcOutcome = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ApiError }),
]);
export type IpcOutcome = z.infer<typeof IpcOutcome>;

export function outcomeOf(value: unknown): IpcOutcome {
  return { ok: true, value };
}
export function failureOf(err: unknown): IpcOutcome {
  return { ok: false, error: toApiError(err) };
}

type IpcListener = (event: unknown, ...args: unknown[]) => void;

/** The part of Electron's ipcRenderer the preload uses (Electron's IpcRenderer fits; preload.ts checks). */
export interface IpcRendererPort {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: IpcListener): unknown;
  removeListener(channel: string, listener: IpcListener): unknown;
}

const EventMessage = z.object({ event: z.string(), payload: z.unknown() });

/** The preload's transport: calls through invoke, events fanned out from one ipcRenderer listener. */
export function createIpcTransport(ipc: IpcRendererPort, onListenerError?: (err: unknown) => void): Transport {
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const onEvent: IpcListener = (_event, message) => {
    const parsed = EventMessage.safeParse(message);
    if (!parsed.success) return onListenerError?.(parsed.error);
    for (const listener of [...listeners]) {
      try {
        listener(parsed.data.event, parsed.data.payload);
      } catch (err) {
        onListenerError?.(err);
      }
    }
  };
  return {
    async invoke(name, request) {
      const outcome = IpcOutcome.parse(await ipc.invoke(ipcCallChannel(name), request));
      if (!outcome.ok) throw fromApiError(outcome.error);
      return outcome.value;
    },
    subscribe(listener) {
      if (listeners.size === 0) ipc.on(IPC_EVENT_CHANNEL, onEvent);
      listeners.add(listener);
      return () => {
        if (!listeners.delete(listener)) return;
        if (listeners.size === 0) ipc.removeListener(IPC_EVENT_CHANNEL, onEvent);
      };
    },
  };
}

// contextBridge copies a rejected Error into the page's world with its message only: a
// LoadscopeError's code would be lost on the way from the preload to the renderer. So the preload
// exposes an API whose rejections carry the code in the message ('[LS_ERR_X] message'), and the
// renderer rebuilds the LoadscopeError from it.

const BRIDGED = /\[(LS_ERR_[A-Z_]+)\] ([\s\S]*)$/;

export function toBridgedError(err: unknown): Error {
  const { code, message } = toApiError(err);
  return new Error(`[${code}] ${message}`);
}

export function fromBridgedError(err: unknown): unknown {
  if (err instanceof LoadscopeError || !(err instanceof Error)) return err;
  const match = BRIDGED.exec(err.message);
  if (!match || !isErrorCode(match[1])) return err;
  return new LoadscopeError(match[1], match[2]);
}

function mapErrors(api: LoadscopeApi, map: (err: unknown) => unknown): LoadscopeApi {
  return {
    async invoke<N extends CallName>(name: N, request: CallRequest<N>): Promise<CallResponse<N>> {
      try {
        return await api.invoke(name, request);
      } catch (err) {
        throw map(err);
      }
    },
    on: (event, listener) => api.on(event, listener),
  };
}

/** For the preload: what contextBridge exposes (rejections survive the bridge with their code). */
export function bridgeSafeApi(api: LoadscopeApi): LoadscopeApi {
  return mapErrors(api, toBridgedError);
}

/** For the renderer: window.loadscope with LoadscopeErrors rebuilt from bridged rejections. */
export function restoreErrorCodes(api: LoadscopeApi): LoadscopeApi {
  return mapErrors(api, fromBridgedError);
}
