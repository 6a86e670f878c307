// The driver's one clock: microseconds on performance.now()'s monotonic clock, from t0 (the start of
// the schedule). Set once per worker by the runner.
let t0Ms = performance.now();

export function setT0(ms: number): void {
  t0Ms = ms;
}

export function t0(): number {
  return t0Ms;
}

export function nowUs(): number {
  return (performance.now() - t0Ms) * 1000;
}
