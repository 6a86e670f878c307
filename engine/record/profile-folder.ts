import { rmSync } from 'node:fs';

// The recording's throwaway Chromium profile, removed when the recording stops. When the browser
// quits by itself (the person closed its last window), its helper processes can still be writing
// into the profile as it is removed (seen on a busy machine: ENOTEMPTY on Default/), and a removal
// that threw then lost the whole recording. So the removal is retried (Node's own backoff, about
// 1.5 s at most), and a folder that still cannot go is left behind with a note, never the journey lost.

/** Removes the profile folder; null when it is gone, else the note saying what was left behind. */
export function removeProfile(profile: string): string | null {
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    return null;
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return `the browser profile ${profile} was left behind: ${why}`;
  }
}
