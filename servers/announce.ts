import type { Architecture, ServerReadyMessage } from '../contract/servers.js';
import type { FrontTransport } from './front-transport.js';

/** Tells the parent (IPC ready message with the certificate over TLS, when there is a channel) and a person (one stdout line). */
export function announceReady(architecture: Architecture, host: string, port: number, transport: FrontTransport = { protocol: 'h1' }): void {
  const message: ServerReadyMessage = { type: 'ready', port, pid: process.pid, protocol: transport.protocol, ...(transport.tls ? { cert: transport.tls.cert } : {}) };
  if (process.send && process.connected) process.send(message);
  const shown = host.includes(':') ? `[${host}]` : host;
  const scheme = transport.tls ? 'https' : 'http';
  const h2 = transport.protocol === 'h2' || transport.protocol === 'h2c' ? `, ${transport.protocol}` : '';
  process.stdout.write(`loadscope-server ${architecture} listening on ${scheme}://${shown}:${port}${h2} (pid ${process.pid})\n`);
}
