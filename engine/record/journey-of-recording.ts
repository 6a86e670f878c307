import { harToScenario, parseHar } from '../import-requests/har.js';
import type { CorrelateChoice } from '../../contract/imported-journey.js';
import type { JourneyImport } from '../import-requests/journey.js';

// The one door from a recording to a journey: the captured HAR through the HAR importer (issue 39,
// part A: steps in recorded order, the correlations chosen taken (all unless the person's review
// said otherwise), credentials moved to the
// data file `credentialsFile` names), keeping only the recorded URL's origin (the importer leaves
// other hosts and static assets out, each with its note).

/** The journey of a recording: the scenario's text, its notes (the recording's own first), its proposals and the credentials' CSV. */
export function journeyOfRecording(har: string, target: URL, recordingNotes: readonly string[], credentialsFile = 'credentials.csv', correlate: CorrelateChoice = 'all'): JourneyImport {
  const name = `recording of ${target.host}`;
  // a recording longer than a journey keeps its first steps (with a note): the person's clicks are not thrown away
  const result = harToScenario(parseHar(har, name), name, { host: target.host, credentialsFile, overLimit: 'keep-first', correlate });
  return { ...result, notes: [...recordingNotes, ...result.notes] };
}
