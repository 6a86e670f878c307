import type { LoadscopeApi } from '../contract/api';
import { createApi } from '../contract/client';
import { restoreErrorCodes } from '../contract/transport-ipc';
import { httpWsTransport } from './transport/http-ws';

// The one way the UI reaches the engine. In the desktop app the preload put the contract on
// window.loadscope (contextBridge drops an error's code on the way, so it is rebuilt here from the
// message the preload encoded it in); in a browser, the same contract goes over HTTP + WebSocket to
// the host that served this page.

function pick(): LoadscopeApi {
  if (window.loadscope) return restoreErrorCodes(window.loadscope);
  return createApi(httpWsTransport());
}

export const api: LoadscopeApi = pick();
