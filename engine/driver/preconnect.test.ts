import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runDriver } from './driver.js';
import { closed } from './test-support/phases.js';
import { skipUnless } from '../test-support/skip.js';

// A closed phase's users connecting as they start race a busy server's accept queue (see PRECONNECT
// in run.ts: on seed 004's single-process server up to 175 of 250 users got in seconds late). With
// `preconnect` every user's handshake is complete before t0. The count is the kernel's (established
// sockets on the server's port in /proc/net/tcp), not the server's accepts, which may lag on a busy
// machine. The phase starts 2.5 s after t0, so without preconnect no user has connected yet when t0
// is announced.
const USERS = 50;
let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

function establishedTo(port: number): number {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => {
      const f = line.trim().split(/\s+/);
      return f[1] === local && f[3] === '01';
    }).length;
}

async function connectedAtT0(preconnect: boolean): Promise<number> {
  server = createServer((req, res) => {
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  let atT0 = -1;
  const result = await runDriver(
    { baseUrl: `http://127.0.0.1:${port}`, phases: [closed(USERS, { count: USERS, at: 2500, preconnect })] },
    { onStart: () => (atT0 = establishedTo(port)) },
  );
  expect(result.phases[0]!.result.ok).toBe(USERS);
  return atT0;
}

describe('closed phase preconnect', skipUnless(process.platform === 'linux', `connections are counted in /proc/net/tcp, on Linux only (this is ${process.platform})`), () => {
  it("with preconnect, every user's connection is established before t0", async () => {
    expect(await connectedAtT0(true)).toBe(USERS);
  });

  it('without it, users connect only when the phase starts', async () => {
    expect(await connectedAtT0(false)).toBe(0);
  });
});
