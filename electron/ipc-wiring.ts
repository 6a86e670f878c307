import type { WebContents } from 'electron';
import { calls, isCallName, type EngineEvent } from '../contract/api.js';
import { LoadscopeError } from '../contract/errors.js';
import { failureOf, IPC_EVENT_CHANNEL, ipcCallChannel, outcomeOf, type IpcOutcome } from '../contract/transport-ipc.js';
import { dispatchTo, type EngineApiSurface } from '../engine/host/api-dispatch.js';

// The main process's half of the contract over Electron IPC: one ipcMain.handle per call, each
// checking that the sender is our window's own frame, then parsing the request against the contract
// (dispatchTo: here, or once in the engine process when the engine lives there) before the engine
// sees it. Answers are outcomes ({ ok, value } | { ok, error }), never throws, because
// ipcRenderer.invoke reduces a thrown error to its message. Engine events go to the window as
// { event, payload } on one channel.

/**
 * The part of ipcMain the wiring uses. Electron's own IpcMain fits it with E = IpcMainInvokeEvent
 * (main.ts passes the real one, so tsc checks that against Electron's types); tests pass a small
 * in-process stand-in with their own event type.
 */
export interface IpcMainPort<E> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => Promise<IpcOutcome>): void;
  removeHandler(channel: string): void;
}

/** Where events go: the window's webContents (Electron's own type, narrowed to what is used). */
export type EventSink = Pick<WebContents, 'send' | 'isDestroyed'>;

export function sendToRenderer(sink: EventSink | undefined, event: EngineEvent): void {
  if (sink && !sink.isDestroyed()) sink.send(IPC_EVENT_CHANNEL, event);
}

/** Registers every call's handler and forwards engine events; returns the undo. */
export function wireIpc<E>(
  ipcMain: IpcMainPort<E>,
  engine: EngineApiSurface,
  isTrustedSender: (event: E) => boolean,
  sink: () => EventSink | undefined,
): () => void {
  const channels: string[] = [];
  for (const name of Object.keys(calls)) {
    if (!isCallName(name)) continue;
    const channel = ipcCallChannel(name);
    ipcMain.handle(channel, async (event, request) => {
      if (!isTrustedSender(event)) {
        return failureOf(new LoadscopeError('LS_ERR_UNAUTHORIZED', `${name}: refused, the sender is not the Loadscope window`));
      }
      try {
        return outcomeOf(await dispatchTo(engine, name, request));
      } catch (err) {
        return failureOf(err);
      }
    });
    channels.push(channel);
  }
  const unsubscribe = engine.subscribe((event) => sendToRenderer(sink(), event));
  return () => {
    unsubscribe();
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}
