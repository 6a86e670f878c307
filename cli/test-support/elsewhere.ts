import { chmodSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { isLoopbackAddress } from '../../engine/net/target-guard.js';

// "Elsewhere" for tests of the loopback rule, without sending anything off this machine: an address
// of one of this machine's own interfaces outside 127.0.0.0/8 and ::1 (the kernel delivers traffic
// to it locally), a server there that counts every connection it accepts, and a k6 that a run
// starts as usual but that is sent there instead of to the run's target.

/** An address of this machine's own interfaces outside loopback (IPv4 first; never link-local), or null. */
export function ownAddressOutsideLoopback(): { address: string; host: string } | null {
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  const usable = all.filter((i) => !i.internal && !isLoopbackAddress(i.address) && !i.address.toLowerCase().startsWith('fe80:'));
  const pick = usable.find((i) => i.family === 'IPv4') ?? usable[0];
  if (pick === undefined) return null;
  return { address: pick.address, host: pick.family === 'IPv6' ? `[${pick.address}]` : pick.address };
}

export interface CountingServer {
  url: string;
  /** every connection accepted so far has been counted: the count, this check's own connection left out */
  settledCount(): Promise<number>;
  close(): Promise<void>;
}

/**
 * An http server on `address` that answers 200 and counts accepted connections. settledCount()
 * connects once more and waits to see that connection accepted: connections are accepted in the
 * order they arrived, so every earlier one (a k6 that has exited) is counted by then, without a sleep.
 */
export async function countingServer(address: string): Promise<CountingServer> {
  const ports: number[] = [];
  const waiting = new Map<number, () => void>();
  const server: Server = createServer((_req, res) => res.end('ok'));
  server.on('connection', (socket) => {
    const port = socket.remotePort ?? -1;
    ports.push(port);
    waiting.get(port)?.();
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    async settledCount() {
      const probe = connect({ host: address, port });
      const own = await new Promise<number>((resolve, reject) => {
        probe.once('error', reject);
        probe.once('connect', () => {
          const local = probe.localPort!;
          if (ports.includes(local)) resolve(local);
          else waiting.set(local, () => resolve(local));
        });
      });
      probe.destroy();
      return ports.filter((p) => p !== own).length;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A k6 (for LOADSCOPE_K6) that runs the real one with everything the run gives it, except that the
 * target (`-e LOADSCOPE_TARGET=...`, the run's loopback URL) is replaced by `target`: what k6's block
 * list is there for ("whatever LOADSCOPE_TARGET or a response says", k6-block-list.ts).
 */
export function writeK6SentElsewhere(dir: string, realK6: string, target: string): string {
  const file = join(dir, 'k6-sent-elsewhere');
  writeFileSync(file, [
    '#!/bin/sh',
    'for a do',
    '  shift',
    `  case $a in LOADSCOPE_TARGET=*) a=${quoted(`LOADSCOPE_TARGET=${target}`)} ;; esac`,
    '  set -- "$@" "$a"',
    'done',
    `exec ${quoted(realK6)} "$@"`,
    '',
  ].join('\n'));
  chmodSync(file, 0o755);
  return file;
}
