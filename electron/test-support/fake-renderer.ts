import type { CallName, CallRequest, CallResponse, LoadscopeApi } from '../../contract/api.js';
import { createApi } from '../../contract/client.js';
import { bridgeSafeApi, createIpcTransport, restoreErrorCodes } from '../../contract/transport-ipc.js';
import type { FakeIpc } from './fake-ipc.js';

// The renderer's side of the desktop chain, for tests: the preload's transport and API over a fake
// ipcRenderer, what contextBridge does to it, and the api the page builds from window.loadscope.

export const APP_URL = 'loadscope://app/index.html';

/**
 * What contextBridge does to the preload's API on its way into the page: answers are copied, and a
 * rejected Error arrives as a plain Error with its message only (custom properties such as code are
 * dropped: electron/electron#25596).
 */
export function throughContextBridge(api: LoadscopeApi): LoadscopeApi {
  return {
    async invoke<N extends CallName>(name: N, request: CallRequest<N>): Promise<CallResponse<N>> {
      try {
        return structuredClone(await api.invoke(name, request));
      } catch (err) {
        throw new Error(err instanceof Error ? err.message : String(err));
      }
    },
    on: (event, listener) => api.on(event, (payload) => listener(structuredClone(payload))),
  };
}

/** The page's api for a frame at frameUrl: preload transport -> bridge -> restored error codes. */
export function rendererApi(ipc: FakeIpc, frameUrl = APP_URL) {
  const preloadIpc = ipc.renderer(frameUrl);
  const transport = createIpcTransport(preloadIpc);
  const api = restoreErrorCodes(throughContextBridge(bridgeSafeApi(createApi(transport))));
  return { preloadIpc, transport, api };
}
