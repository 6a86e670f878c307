import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { closeFront, createFront, listen, type FrontServer } from './http-front.js';

// The bundled fronts' event stream (issue 41, events.ts), served by every architecture's front
// itself: n events gapMs apart and the end; a bad parameter refused in one line.

let server: FrontServer | null = null;
afterEach(() => {
  if (server !== null) closeFront(server);
  server = null;
});

async function front(): Promise<string> {
  // a stream needs no work: a dispatcher that is never asked
  server = createFront({ dispatch: () => Promise.reject(new Error('no work for a stream')), stats: () => ({}) as never });
  return `http://127.0.0.1:${await listen(server, { port: 0, host: '127.0.0.1' })}`;
}

describe('/events on the bundled front', () => {
  it('n=3, gapMs=1, size=4: an event stream of 3 events of 4 bytes of data, numbered, then its end', async () => {
    const url = await front();
    const res = await request(`${url}/events?n=3&gapMs=1&size=4`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(await res.body.text()).toBe('id: 1\ndata: xxxx\n\nid: 2\ndata: xxxx\n\nid: 3\ndata: xxxx\n\n');
  });

  it('a bad or unknown parameter: a 400 with one line naming it', async () => {
    const url = await front();
    for (const [query, line] of [
      ['n=-1', "n must be a whole number between 0 and 1000000, got '-1'"],
      ['gapMs=99999999', "gapMs must be a whole number between 0 and 60000, got '99999999'"],
      ['size=1e9', "size must be a whole number between 0 and 65536, got '1e9'"],
      ['every=1', "unknown parameter 'every' (allowed: n, gapMs, size, firstMs)"],
    ] as const) {
      const res = await request(`${url}/events?${query}`);
      expect(res.statusCode).toBe(400);
      expect(await res.body.text()).toBe(`${line}\n`);
    }
  });
});
