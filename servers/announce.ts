import type { Architecture, ServerReadyMessage } from '../contract/servers.js';

/** Tells the parent (IPC ready message, when there is a channel) and a person (one stdout line). */
export function announceReady(architecture: Architecture, host: string, port: number): void {
  const message: ServerReadyMessage = { type: 'ready', port, pid: process.pid };
  if (process.send && process.connected) process.send(message);
  const shown = host.includes(':') ? `[${host}]` : host;
  process.stdout.write(`loadscope-server ${architecture} listening on http://${shown}:${port} (pid ${process.pid})\n`);
}
