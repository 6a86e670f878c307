import type { Client, Dispatcher } from 'undici';
import type { Connection, RequestHandler } from './connection.js';
import { undici } from './packages.js';

// undici's Client as a Connection: its promises are settled here (a close or destroy that fails has
// nothing left to tell), and its 'disconnect' (the session ended) is the one event a transport hears.

export class UndiciConnection implements Connection<Dispatcher.DispatchOptions> {
  private readonly client: Client;

  constructor(baseUrl: string, options: Client.Options, onDisconnect: (() => void) | null) {
    this.client = new (undici().Client)(baseUrl, options);
    if (onDisconnect !== null) this.client.on('disconnect', onDisconnect);
  }

  dispatch(request: Dispatcher.DispatchOptions, handler: RequestHandler): void {
    this.client.dispatch(request, handler);
  }

  close(): void {
    void this.client.close().catch(() => undefined);
  }

  destroy(err?: Error): void {
    void this.client.destroy(err ?? null).catch(() => undefined);
  }
}
