import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptQueueIn, acceptQueueOf, ADMISSION_MAX_MS, admissionNote, awaitAdmission } from './admission.js';
import { runDriver } from './driver.js';
import { closed } from './test-support/phases.js';
import { startUnacceptingServer, type UnacceptingServer } from './test-support/unaccepting-server.js';
import { skipUnless } from '../test-support/skip.js';

// Seed 004's named next step: before t0 a bundled target's accept queue is waited out, bounded
// (admission.ts). Against a real listening socket whose server does not accept (a child process
// blocked until released): the connections opened ahead are counted in the kernel's queue, the wait
// ends when the server has taken them, a server that never does holds t0 back only ADMISSION_MAX_MS,
// and the driver reports what it found. A /proc text that is not the kernel's reads as nothing waiting.

let server: UnacceptingServer | null = null;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await server?.close();
  server = null;
});

function open(port: number, n: number): Promise<void[]> {
  return Promise.all(
    Array.from({ length: n }, () => new Promise<void>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve());
      s.on('error', reject);
      sockets.push(s);
    })),
  );
}

/** The kernel queues a handshake's last ACK a moment after the client sees it connected: wait until all n are counted. */
async function queued(port: number, n: number): Promise<void> {
  while ((acceptQueueOf(port) ?? n) < n) await new Promise((r) => setImmediate(r));
}

const linux = skipUnless(process.platform === 'linux', `the accept queue is read from /proc/net/tcp, on Linux only (this is ${process.platform})`);

describe('the wait before t0 for the target to accept its connections', linux, () => {
  it('a server that takes its waiting connections once released: the wait saw them queued and ends when the queue is empty', async () => {
    server = await startUnacceptingServer();
    await open(server.port, 5);
    await queued(server.port, 5);
    const waiting = awaitAdmission(server.port, 60_000);
    server.release();
    const found = await waiting;
    expect(found).toMatchObject({ kind: 'emptied', waitingAtStart: 5 });
  });

  it('a server that never accepts: the wait ends at its bound, counting the connections still waiting', async () => {
    server = await startUnacceptingServer();
    await open(server.port, 3);
    await queued(server.port, 3);
    const found = await awaitAdmission(server.port, 200);
    expect(found).toMatchObject({ kind: 'deadline', waitingAtStart: 3, stillWaiting: 3 });
    expect(found.kind === 'deadline' && found.waitedMs).toBeGreaterThanOrEqual(200);
  });

  it("users opened ahead against a server that does not accept: t0 waits its bound, reports the queue, and the phase still runs once the server takes them", async () => {
    server = await startUnacceptingServer();
    const s = server;
    let admission: unknown = null;
    const result = await runDriver(
      { baseUrl: `http://127.0.0.1:${s.port}`, admissionPort: s.port, phases: [closed(4, { count: 8, preconnect: true })] },
      {
        onStart: (e) => {
          admission = e.admission ?? null;
          s.release();
        },
      },
    );
    expect(admission).toMatchObject({ kind: 'deadline', waitingAtStart: 4, stillWaiting: 4 });
    expect((admission as { waitedMs: number }).waitedMs).toBeGreaterThanOrEqual(ADMISSION_MAX_MS);
    expect(result.phases[0]!.result.ok).toBe(8);
  }, 30_000);

  it('without an admission port (an external target): t0 does not wait and nothing is reported', async () => {
    server = await startUnacceptingServer();
    const s = server;
    let started: { admission?: unknown } | null = null;
    await runDriver({ baseUrl: `http://127.0.0.1:${s.port}`, phases: [closed(2, { count: 2, preconnect: true })] }, {
      onStart: (e) => {
        started = e;
        s.release();
      },
    });
    expect(started).not.toBeNull();
    expect(started!.admission).toBeUndefined();
  }, 30_000);
});

describe('reading the accept queue and saying what the wait found', () => {
  it('a /proc/net/tcp text: only LISTEN rows of the port count, their rx_queue summed; garbage reads as none waiting', () => {
    const text = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000018 00:00000000 00000000     0        0 1 1',
      '   1: 0100007F:1F90 0100007F:C350 01 00000000:00000040 00:00000000 00000000     0        0 2 1',
      '   2: 0100007F:1F91 00000000:0000 0A 00000000:00000007 00:00000000 00000000     0        0 3 1',
      '   3: 0100007F:1F90 00000000:0000 0A zz',
      'not a line of the kernel at all',
    ].join('\n');
    expect(acceptQueueIn(text, 0x1f90)).toBe(24);
    expect(acceptQueueIn('\u0000\u0000garbage', 0x1f90)).toBe(0);
  });

  it("the note: silent when nothing waited or the server's next turn took it, names the count and the wait otherwise, and the bound when it passed", () => {
    expect(admissionNote('single', { kind: 'emptied', waitingAtStart: 0, waitedMs: 0 })).toBeNull();
    // a slow read of /proc on a loaded machine with nothing waiting is no wait (seen: '0 connections waited ... 53 ms later')
    expect(admissionNote('single', { kind: 'emptied', waitingAtStart: 0, waitedMs: 53 })).toBeNull();
    expect(admissionNote('single', { kind: 'emptied', waitingAtStart: 1, waitedMs: 6 })).toBeNull();
    expect(admissionNote('single', { kind: 'emptied', waitingAtStart: 24, waitedMs: 241.6 })).toBe("single: before t0, 24 connections waited in the server's accept queue; the load started once it was empty (242 ms later)");
    expect(admissionNote('single', { kind: 'deadline', waitingAtStart: 24, waitedMs: 2003, stillWaiting: 5 })).toContain('after 2,003 ms (the bound) 5 still waited');
    expect(admissionNote('single', { kind: 'unreadable' })).toContain('cannot be read here');
  });
});
