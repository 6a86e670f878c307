import type { IpcRendererPort, IpcOutcome } from '../../contract/transport-ipc.js';
import type { EventSink, IpcMainPort } from '../ipc-wiring.js';

// An in-process stand-in for Electron's ipcMain / ipcRenderer / webContents.send, for tests (the
// Electron binary cannot run here). It behaves like Electron where it matters: arguments and answers
// are structured-cloned, invoking a channel nobody handles rejects with Electron's message, a second
// handler for one channel throws, and sends are asynchronous.

type RendererListener = (event: unknown, ...args: unknown[]) => void;

/** What the main side learns about a sender: which frame sent it (a URL stands in for WebFrameMain). */
export interface FakeInvokeEvent {
  senderFrame: { url: string } | null;
}

export interface FakeIpc {
  main: IpcMainPort<FakeInvokeEvent>;
  /** A renderer (preload) whose frame has this URL. */
  renderer(frameUrl: string): IpcRendererPort;
  webContents: EventSink;
  channels(): string[];
}

export function createFakeIpc(): FakeIpc {
  const handlers = new Map<string, (event: FakeInvokeEvent, ...args: unknown[]) => Promise<IpcOutcome>>();
  const listeners = new Map<string, Set<RendererListener>>();
  const rendererEvent = { sender: 'fake-ipc-renderer' };

  const main: IpcMainPort<FakeInvokeEvent> = {
    handle(channel, listener) {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, listener);
    },
    removeHandler(channel) {
      handlers.delete(channel);
    },
  };

  const webContents: EventSink = {
    send(channel: string, ...args: unknown[]): void {
      const copied = structuredClone(args);
      setImmediate(() => {
        for (const listener of [...(listeners.get(channel) ?? [])]) listener(rendererEvent, ...copied);
      });
    },
    isDestroyed: () => false,
  };

  function renderer(frameUrl: string): IpcRendererPort {
    return {
      async invoke(channel, ...args) {
        const handler = handlers.get(channel);
        if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
        return structuredClone(await handler({ senderFrame: { url: frameUrl } }, ...structuredClone(args)));
      },
      on(channel, listener) {
        const set = listeners.get(channel) ?? new Set<RendererListener>();
        set.add(listener);
        listeners.set(channel, set);
      },
      removeListener(channel, listener) {
        listeners.get(channel)?.delete(listener);
      },
    };
  }

  return { main, renderer, webContents, channels: () => [...handlers.keys()] };
}
