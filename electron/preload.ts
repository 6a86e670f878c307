// The sandboxed preload: exposes the contract, and nothing else, to the page as window.loadscope.
// It may import only 'electron' and contract/ (esbuild bundles contract/ and zod into preload.cjs;
// a sandboxed preload can require nothing but 'electron').
import { contextBridge, ipcRenderer } from 'electron';
import { createApi } from '../contract/client.js';
import { bridgeSafeApi, createIpcTransport } from '../contract/transport-ipc.js';

const transport = createIpcTransport(ipcRenderer, (err) => console.error('loadscope: an event could not be delivered', err));
contextBridge.exposeInMainWorld('loadscope', bridgeSafeApi(createApi(transport)));
