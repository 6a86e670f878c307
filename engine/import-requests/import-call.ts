import type { CorrelateChoice, ImportedJourney } from '../../contract/imported-journey.js';
import type { KeptFile } from '../../contract/kept-files.js';
import { curlToScenario } from './curl.js';
import { harToScenario, parseHar } from './har.js';
import type { JourneyImport } from './journey.js';
import { badImport, MAX_HAR_BYTES, shown } from './limits.js';

// The UI's imports (contract calls requests:import-har and requests:import-curl). A scenario made in
// the UI has no folder of its own: the credentials an import moved out are kept as an editor's
// upload of a data file is (the draft keeps it, a save keeps it with the library scenario, whose data
// entry names it by its plain name), and only when the person keeps the import: a preview keeps
// nothing. The values never travel back to the UI, only the kept file's name, size and columns.

/** The data file the scenario names: a plain name, as kept files are named. */
const CREDENTIALS_FILE = 'credentials.csv';

/** The HAR a person sent, refused in one line past the bound a HAR file has at the command line. */
export function importHarText(text: string, name: string, correlate: CorrelateChoice): JourneyImport {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_HAR_BYTES) throw badImport(`${shown(name)} is ${bytes} bytes; a HAR may have at most ${MAX_HAR_BYTES / (1024 * 1024)} MiB`);
  return harToScenario(parseHar(text, name), name, { correlate, credentialsFile: CREDENTIALS_FILE });
}

export function importCurlCommand(command: string): JourneyImport {
  return curlToScenario(command, { credentialsFile: CREDENTIALS_FILE });
}

/** The answer to the UI: the credentials kept through `keep` when the person keeps the import, never their values. */
export function journeyAnswer(result: JourneyImport, keepImport: boolean, keep: (name: string, csv: string) => KeptFile): ImportedJourney {
  const { csv, ...answer } = result;
  return { ...answer, files: keepImport && csv !== null ? [keep(CREDENTIALS_FILE, csv)] : [] };
}
