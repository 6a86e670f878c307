// What one recording may hold (issue 39). A recording sits in memory until it is stopped, and a page
// can make requests without end (a poll, a broken retry loop, a hostile page), so every dimension is
// bounded: past a bound the recording stops by itself, keeps what it captured before, and says which
// bound it met in one line that becomes a note of the journey.

export interface RecordingBounds {
  /** requests captured (every request the browser sent, assets and other hosts included) */
  requests: number;
  /** bytes of request and response bodies kept (bodies not kept, such as images, do not count) */
  bytes: number;
  /** how long the browser stays open */
  durationMs: number;
}

/**
 * A click-through of a journey is tens to a few hundred requests; a journey's scenario holds at most
 * 256 endpoints (SCENARIO_LIMITS.templates), so 2,000 requests is ample. 32 MiB of bodies keeps the
 * HAR it makes well inside import-har's 64 MiB; half an hour is longer than anyone clicks through one
 * journey, and a forgotten browser window still ends.
 */
export const RECORDING_BOUNDS: RecordingBounds = { requests: 2_000, bytes: 32 * 1024 * 1024, durationMs: 30 * 60_000 };

/** One response body larger than this is captured without its text (said in a note). */
export const MAX_KEPT_BODY_BYTES = 1024 * 1024;

/** How long Chromium may take to start, the first page to answer, and a stop to finish. */
export const LAUNCH_TIMEOUT_MS = 30_000;
export const OPEN_TIMEOUT_MS = 30_000;
export const STOP_TIMEOUT_MS = 15_000;

const MIB = 1024 * 1024;
const bytesText = (n: number): string => (n >= MIB && n % MIB === 0 ? `${n / MIB} MiB` : `${n} bytes`);
const minutesText = (ms: number): string => (ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/**
 * Counts what a recording holds against its bounds. `crossed` is set once, by the first bound met:
 * from then on the recorder keeps nothing more and stops.
 */
export class RecordingMeter {
  requests = 0;
  bytes = 0;
  crossed: string | null = null;

  constructor(
    readonly bounds: RecordingBounds,
    private readonly startedAt: number,
  ) {}

  /** A request was sent: false when it is past the bound (it is not kept). */
  request(): boolean {
    if (this.crossed !== null) return false;
    if (this.requests >= this.bounds.requests) {
      this.crossed = `the recording stopped at its bound of ${this.bounds.requests.toLocaleString('en-US')} requests: the journey is made of the requests before it`;
      return false;
    }
    this.requests++;
    return true;
  }

  /** A body of `n` bytes is to be kept: false when it would pass the bound (it is not kept). */
  body(n: number): boolean {
    if (this.crossed !== null) return false;
    if (this.bytes + n > this.bounds.bytes) {
      this.crossed = `the recording stopped at its bound of ${bytesText(this.bounds.bytes)} of request and response bodies: the journey is made of the requests before it`;
      return false;
    }
    this.bytes += n;
    return true;
  }

  /** The recording has been open `now - startedAt` ms: true (and crossed set) once that is past the bound. */
  expired(now: number): boolean {
    if (this.crossed !== null) return true;
    if (now - this.startedAt < this.bounds.durationMs) return false;
    this.crossed = `the recording stopped at its bound of ${minutesText(this.bounds.durationMs)}: the journey is made of what was captured until then`;
    return true;
  }
}

/** `work`, or undefined once `ms` have passed without it settling (a stop must end even if the browser hangs). */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
