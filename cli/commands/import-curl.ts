import type { Command } from 'commander';
import { curlToScenario } from '../../engine/import-requests/curl.js';
import { credentialsFileFor, writeJourney } from './imported-output.js';

export function registerImportCurl(program: Command): void {
  program
    .command('import-curl')
    .description('make a journey of a curl command (as developer tools copy it: "Copy as cURL (bash)"), aimed at its own server; credentials moved to a data file beside it')
    .argument('<command>', "the whole curl command, quoted: 'curl ...'")
    .option('--out <file>', 'write the scenario here (default: print it); credentials go beside it as <name>.credentials.csv')
    .option('--force', 'replace --out and its credentials file if they exist', false)
    .action((command: string, opts: { out?: string; force: boolean }) => {
      const credentials = credentialsFileFor(opts.out);
      writeJourney(curlToScenario(command, { credentialsFile: credentials.named }), credentials.path, opts);
    });
}
