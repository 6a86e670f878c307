import type { LoadscopeApi } from '../contract/api';
import { createApi } from '../contract/client';
import { restoreErrorCodes } from '../contract/transport-ipc';
import { httpWsTransport } from './transport/http-ws';

// The one way the UI reaches the engine. In the desktop app the preload put the contract on
// window.loadscope (contextBridge drops an error's code on the way, so it is rebuilt here from the
// message the preload encoded it in); in a browser, the same contract goes over HTTP + WebSocket to
// the host that served this page.

const connectionListeners = new Set<(connected: boolean) => void>();

function pick(): LoadscopeApi {
  if (window.loadscope) return restoreErrorCodes(window.loadscope);
  return createApi(httpWsTransport(({ connected }) => connectionListeners.forEach((listener) => listener(connected))));
}

export const api: LoadscopeApi = pick();

/** Which host the page runs in (for labels such as "Open file…" that only the desktop has). */
export const hostKind: 'electron' | 'browser' = window.loadscope ? 'electron' : 'browser';

/**
 * The browser host's event socket going down (false) and back up (true); events sent meanwhile are
 * lost, so a view may refetch on true. Never fires in the desktop app. Returns the unsubscribe.
 */
export function onHostConnection(listener: (connected: boolean) => void): () => void {
  connectionListeners.add(listener);
  return () => connectionListeners.delete(listener);
}
