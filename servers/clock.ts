// One clock for every process and thread of a server: process.hrtime is libuv's monotonic clock
// (CLOCK_MONOTONIC on Linux, mach_absolute_time on macOS, QueryPerformanceCounter on Windows), which
// is system-wide, so a timestamp taken in a worker process or thread can be compared with one taken in
// the front process. Durations across processes are therefore start/end pairs on this clock.

/** Milliseconds on the shared monotonic clock (fractional, ~ns resolution). */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
