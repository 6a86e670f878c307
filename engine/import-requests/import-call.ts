import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CorrelateChoice, ImportedJourney } from '../../contract/imported-journey.js';
import { curlToScenario } from './curl.js';
import { harToScenario, parseHar } from './har.js';
import type { JourneyImport } from './journey.js';

// The UI's imports (contract calls requests:import-har and requests:import-curl). A scenario made in
// the UI has no folder of its own, so the credentials an import moved out go to a file of the data
// folder (imports/, mode 0600) named by its absolute path, written only when the person keeps the
// import (a preview writes nothing). The values never travel back to the UI: only the file's path
// and its columns do.

const credentialsPath = (dataFolder: string): string => join(dataFolder, 'imports', `${randomBytes(6).toString('hex')}.credentials.csv`);

function kept(result: JourneyImport, path: string, keep: boolean): ImportedJourney {
  if (keep && result.csv !== null) {
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(path, result.csv, { flag: 'wx', mode: 0o600 });
    chmodSync(path, 0o600);
  }
  const { csv: _values, ...answer } = result;
  return answer;
}

export function importHarText(text: string, name: string, correlate: CorrelateChoice, keep: boolean, dataFolder: string): ImportedJourney {
  const path = credentialsPath(dataFolder);
  return kept(harToScenario(parseHar(text, name), name, { correlate, credentialsFile: path }), path, keep);
}

export function importCurlCommand(command: string, keep: boolean, dataFolder: string): ImportedJourney {
  const path = credentialsPath(dataFolder);
  return kept(curlToScenario(command, { credentialsFile: path }), path, keep);
}
