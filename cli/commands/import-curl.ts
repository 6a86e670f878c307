import type { Command } from 'commander';
import { curlToScenario } from '../../engine/import-requests/curl.js';
import { writeImported } from './imported-output.js';

export function registerImportCurl(program: Command): void {
  program
    .command('import-curl')
    .description('make a scenario of a curl command (as developer tools copy it: "Copy as cURL (bash)")')
    .argument('<command>', "the whole curl command, quoted: 'curl ...'")
    .option('--out <file>', 'write the scenario here (default: print it)')
    .option('--force', 'replace --out if it exists', false)
    .option('--keep-secrets', 'keep cookies, Authorization (-u) and headers named like token, secret or session', false)
    .action((command: string, opts: { out?: string; force: boolean; keepSecrets: boolean }) => {
      writeImported(curlToScenario(command, opts), opts);
    });
}
