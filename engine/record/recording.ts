// What a recording is, whichever browser holds it (Chromium through playwright for the CLI and the
// browser host, browser-recorder.ts; an Electron window on the desktop): its live count, how it ends
// by itself, and what Stop hands back. Free of playwright, so the desktop's main process can name it.

export interface RecordingProgress {
  requests: number;
  bytes: number;
}

export interface CapturedRecording {
  /** the capture as a HAR 1.2 file's text */
  har: string;
  /** one line each: what the recording left out or met */
  notes: string[];
  requests: number;
}

export interface Recording {
  /** resolves, with why, when the recording ended by itself: the browser window closed or a bound met */
  readonly ended: Promise<string>;
  progress(): RecordingProgress;
  /** Stops it (once; every call gets the same answer) and closes the browser. */
  stop(): Promise<CapturedRecording>;
}

