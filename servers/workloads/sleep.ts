// sleep: a timer (the thread stays free for other requests) or, with block, the thread itself is
// blocked for the duration (Atomics.wait: the thread cannot do anything else, as in a blocking handler).

const blocker = new Int32Array(new SharedArrayBuffer(4));

export function sleepTimer(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function sleepBlocking(ms: number): void {
  // Nobody ever notifies `blocker`, so this waits the full timeout; loop in case of an early wake.
  const end = performance.now() + ms;
  for (let left = ms; left > 0; left = end - performance.now()) Atomics.wait(blocker, 0, 0, left);
}
