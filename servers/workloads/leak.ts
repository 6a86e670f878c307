// leak: a target that leaks, on purpose (issue 38's memory-rising case): each call keeps `kb` KB
// for the life of the process (or thread) that ran it, filled so the pages are really resident.
// Bounded, so no run or test can exhaust the machine: past MAX_LEAKED_BYTES per process (or thread)
// a call keeps nothing more and says so.

export const MAX_LEAKED_BYTES = 128 * 1024 * 1024;

const kept: Buffer[] = [];
let keptBytes = 0;

export function leak(kb: number): { kb: number; retainedBytes: number; capped: boolean } {
  const bytes = kb * 1024;
  const capped = keptBytes + bytes > MAX_LEAKED_BYTES;
  if (!capped && bytes > 0) {
    kept.push(Buffer.alloc(bytes, 'leak'));
    keptBytes += bytes;
  }
  return { kb, retainedBytes: keptBytes, capped };
}
