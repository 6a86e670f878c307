// Seed 003's shared "bucket" array: `size` counters in shared memory that every request increments,
// each under its own spin-then-sleep lock (Atomics), from whichever thread runs the request.
//
//   counters: Int32Array(size)   the buckets
//   locks:    Int32Array(size)   0 = free, 1 = held; a waiter sleeps on Atomics.wait(locks, i, 1)
//
// Invariant: the sum of the counters equals the number of increments that returned, exactly; the
// thread archs report it as bucketTotal beside handled.

export interface BucketMemory {
  counters: Int32Array;
  locks: Int32Array;
}

export function createBuckets(size: number): BucketMemory {
  return {
    counters: new Int32Array(new SharedArrayBuffer(size * 4)),
    locks: new Int32Array(new SharedArrayBuffer(size * 4)),
  };
}

function lock(locks: Int32Array, i: number): void {
  while (Atomics.compareExchange(locks, i, 0, 1) !== 0) Atomics.wait(locks, i, 1);
}

function unlock(locks: Int32Array, i: number): void {
  Atomics.store(locks, i, 0);
  Atomics.notify(locks, i, 1);
}

/** Picks a bucket at random and increments it under its lock (a plain read-modify-write inside). */
export function incrementRandomBucket(memory: BucketMemory): void {
  const i = Math.floor(Math.random() * memory.counters.length);
  lock(memory.locks, i);
  try {
    // Deliberately not Atomics.add: the lock is what makes this read-modify-write safe.
    memory.counters[i] = memory.counters[i]! + 1;
  } finally {
    unlock(memory.locks, i);
  }
}

export function bucketTotal(memory: BucketMemory): number {
  let total = 0;
  for (let i = 0; i < memory.counters.length; i++) total += Atomics.load(memory.counters, i);
  return total;
}
