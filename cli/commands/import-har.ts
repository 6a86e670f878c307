import type { Command } from 'commander';
import { importHarFile } from '../../engine/import-requests/har.js';
import { writeImported } from './imported-output.js';

export function registerImportHar(program: Command): void {
  program
    .command('import-har')
    .description("make a scenario of a browser's HAR file: the main host's requests as named endpoints (assets, other hosts and secrets left out unless asked)")
    .argument('<file>', 'a HAR 1.2 file (developer tools: "Save all as HAR")')
    .option('--out <file>', 'write the scenario here (default: print it)')
    .option('--force', 'replace --out if it exists', false)
    .option('--host <host>', 'keep requests to this host (default: the most frequent)')
    .option('--all-hosts', 'keep requests to every host (they go to the one server)', false)
    .option('--include-assets', 'keep images, CSS, scripts, fonts and media', false)
    .option('--keep-secrets', 'keep cookies, Authorization and headers named like token, secret or session', false)
    .action(async (file: string, opts: { out?: string; force: boolean; host?: string; allHosts: boolean; includeAssets: boolean; keepSecrets: boolean }) => {
      writeImported(await importHarFile(file, opts), opts);
    });
}
