import type { LoadscopeApi } from '../contract/api';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge); absent in a browser, where the HTTP transport is used. */
    loadscope?: LoadscopeApi;
  }
}
