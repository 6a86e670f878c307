import { closeSync, openSync, readSync } from 'node:fs';

// ADMISSION (seed 004's named next step): connections opened before t0 (preconnect) are complete in
// the kernel, but a single-threaded server takes them off its listening socket's accept queue one per
// event-loop turn. When t0 came at once, the first users' requests flowed and every later turn lasted
// as long as serving them, so the users still queued were admitted 1-4.7 s late (docs/reproductions.md,
// seed-004). So before t0 the driver waits, bounded, until a bundled target's accept queue is empty.
//
// On Linux a LISTEN socket's accept queue is the rx_queue column of /proc/net/tcp and tcp6 (state 0A):
//
//   sl  local_address rem_address   st tx_queue rx_queue ...
//    0: 0100007F:1F90 00000000:0000 0A 00000000:00000018 ...   port 0x1F90, 0x18 = 24 waiting
//
// Elsewhere there is no /proc: nothing is read and the wait is skipped (the run says so).

/**
 * The longest wait before t0 (ms). With no request flowing a server's turns are short: seed 004's 250
 * handshakes drain in tens of ms. A server that does not accept in 2 s is blocked or busy with work
 * of its own, and the run starts anyway (saying how many still waited) rather than hang.
 */
export const ADMISSION_MAX_MS = 2000;
/** A wait shorter than this (ms) goes unsaid: the server's next turn or two, which held no user back (a rate phase's few connections opened ahead often wait that long). */
const ADMISSION_NOTE_MS = 50;
/** How often the queue is read while waiting (ms): a read of /proc/net/tcp costs well under 1 ms. */
const ADMISSION_POLL_MS = 5;
/** At most this much of each /proc file is read: ~150 bytes a socket, so some 50,000 sockets. */
const PROC_READ_MAX_BYTES = 8 * 1024 * 1024;
const PROC_CHUNK_BYTES = 64 * 1024;
const PROC_FILES = ['/proc/net/tcp', '/proc/net/tcp6'];
const LISTEN = '0A';

/** What the wait before t0 found: the queue at its first read, and at its end. */
export type AdmissionWait =
  | { kind: 'unreadable' }
  | { kind: 'emptied'; waitingAtStart: number; waitedMs: number }
  | { kind: 'deadline'; waitingAtStart: number; waitedMs: number; stillWaiting: number };

/** A /proc file's text, at most PROC_READ_MAX_BYTES; null where it cannot be read. */
function readProc(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    // /proc files report size 0: read chunk by chunk until the end or the bound
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < PROC_READ_MAX_BYTES) {
      const chunk = Buffer.allocUnsafe(Math.min(PROC_CHUNK_BYTES, PROC_READ_MAX_BYTES - total));
      const got = readSync(fd, chunk, 0, chunk.length, null);
      if (got === 0) break;
      chunks.push(chunk.subarray(0, got));
      total += got;
    }
    return Buffer.concat(chunks, total).toString('latin1');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Connections waiting in the accept queue of the sockets listening on `port` in a /proc/net/tcp text. */
export function acceptQueueIn(text: string, port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let waiting = 0;
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    // f[1] local address:port, f[3] state, f[4] tx_queue:rx_queue (all hex)
    if (f[3] !== LISTEN || !f[1]?.endsWith(`:${hexPort}`)) continue;
    const rx = parseInt(f[4]?.split(':')[1] ?? '', 16);
    if (Number.isFinite(rx)) waiting += rx;
  }
  return waiting;
}

/** Connections waiting to be accepted on `port` (IPv4 and IPv6); null where /proc/net/tcp cannot be read. */
export function acceptQueueOf(port: number): number | null {
  const texts = PROC_FILES.map(readProc);
  if (texts[0] === null) return null;
  return texts.reduce((sum, t) => sum + (t === null ? 0 : acceptQueueIn(t, port)), 0);
}

/** Waits until nothing waits in `port`'s accept queue, at most maxMs; what it found. */
export async function awaitAdmission(port: number, maxMs = ADMISSION_MAX_MS): Promise<AdmissionWait> {
  const start = performance.now();
  const waitingAtStart = acceptQueueOf(port);
  if (waitingAtStart === null) return { kind: 'unreadable' };
  let waiting = waitingAtStart;
  while (waiting > 0 && performance.now() - start < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, ADMISSION_POLL_MS));
    waiting = acceptQueueOf(port) ?? 0;
  }
  const waitedMs = performance.now() - start;
  return waiting === 0 ? { kind: 'emptied', waitingAtStart, waitedMs } : { kind: 'deadline', waitingAtStart, waitedMs, stillWaiting: waiting };
}

/** The run's note on the wait, or null when nothing waited long (the usual case: said nowhere). */
export function admissionNote(server: string, wait: AdmissionWait): string | null {
  if (wait.kind === 'unreadable') return `${server}: the server's accept queue cannot be read here (no /proc/net/tcp): t0 did not wait for it to take the connections opened ahead`;
  // nothing waited: the time was the reading of /proc itself (53 ms seen on a loaded machine), not a wait
  if (wait.kind === 'emptied' && (wait.waitingAtStart === 0 || wait.waitedMs < ADMISSION_NOTE_MS)) return null;
  const ms = Math.round(wait.waitedMs).toLocaleString('en-US');
  const n = wait.waitingAtStart;
  const before = `${server}: before t0, ${n.toLocaleString('en-US')} ${n === 1 ? 'connection' : 'connections'} waited in the server's accept queue`;
  if (wait.kind === 'emptied') return `${before}; the load started once it was empty (${ms} ms later)`;
  return `${before}; after ${ms} ms (the bound) ${wait.stillWaiting.toLocaleString('en-US')} still waited and the load started anyway: those users may be admitted late (late-admission)`;
}
