import { harToScenario, parseHar } from '../import-requests/har.js';
import type { ImportResult } from '../import-requests/imported-scenario.js';

// The one door from a recording to a journey: the captured HAR through the HAR importer, keeping only
// the recorded URL's origin (the importer leaves other hosts and static assets out, each with its
// note). The importer is being rewritten to make flows with correlation (issue 39, part A); this is
// the one call to change when its API does.

/** The journey of a recording: the scenario's text and its notes, the recording's own first. */
export function journeyOfRecording(har: string, target: URL, recordingNotes: readonly string[]): ImportResult {
  const name = `recording of ${target.host}`;
  const result = harToScenario(parseHar(har, name), name, { host: target.host });
  return { text: result.text, notes: [...recordingNotes, ...result.notes] };
}
