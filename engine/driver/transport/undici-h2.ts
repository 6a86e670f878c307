import type { Dispatcher } from 'undici';
import type { Connection } from './connection.js';
import type { Reset } from './transport.js';
import { UndiciTransport } from './undici-h1.js';
import { UndiciConnection } from './undici-connection.js';

// h2 (by ALPN over https) and h2c (by prior knowledge) through undici: `streams` slots share one
// Client, each slot's request a stream of it (the Target's streams; target.ts sets undici's options).

/** what requests still on an h2 client whose session ended are failed with (a reset) */
const SESSION_LOST = Object.assign(new Error('the HTTP/2 session ended'), { code: 'UND_ERR_SOCKET' });

export class H2Transport extends UndiciTransport {
  protected override open(k: number): Connection<Dispatcher.DispatchOptions> {
    // undici can wedge an h2 client whose session failed (a peer flooding PING or SETTINGS frames,
    // nodejs/node#63412): what is dispatched to it after is neither sent nor failed. So a client
    // whose session ended is replaced, never reused; what was still on it fails as a reset.
    const conn: UndiciConnection = new UndiciConnection(this.target.baseUrl, this.options, () => this.drop(k, conn, SESSION_LOST));
    return conn;
  }

  /** A stream that was sent is reset and its session kept for the other streams; one never sent (queued at a client that stopped sending) takes its client with it. */
  override expire(slot: number, reset: Reset | null): Reset | null {
    return reset ?? super.expire(slot, null);
  }
}

