import { startRecording } from './browser-recorder.js';
import type { Recording, RecordingProgress } from './recording.js';
import { findChromium, hasDisplay } from './find-chromium.js';
import { testPageScript } from './test-page-script.js';

// Where the CLI and the browser host decide how a recording's Chromium runs: which Chromium, headed
// when a display exists (headless with a note otherwise), headless too when a test scripts the page.

export interface OpenedRecording {
  recording: Recording;
  headless: boolean;
  /** said to the person now and kept as the journey's first notes */
  notes: string[];
  /** the Chromium it runs in */
  browser: string;
}

const NO_DISPLAY_NOTE = 'no display (DISPLAY and WAYLAND_DISPLAY are unset): Chromium ran headless, so the journey holds only what the page did by itself';

export async function openInChromium(url: URL, onProgress: (p: RecordingProgress) => void, env: Record<string, string | undefined> = process.env): Promise<OpenedRecording> {
  const browser = findChromium(env);
  const script = await testPageScript(env);
  const display = hasDisplay(env);
  const headless = !display || script !== null;
  const recording = await startRecording({ url, executablePath: browser, headless, script, onProgress });
  return { recording, headless, notes: display ? [] : [NO_DISPLAY_NOTE], browser };
}
