import type { Command } from 'commander';
import { importHarFile } from '../../engine/import-requests/har.js';
import { correlateOption, credentialsFileFor, writeJourney } from './imported-output.js';

export function registerImportHar(program: Command): void {
  program
    .command('import-har')
    .description("make a journey of a browser's HAR file: the main host's requests in recorded order as steps, values the server gave correlated, credentials moved to a data file beside it")
    .argument('<file>', 'a HAR 1.2 file (developer tools: "Save all as HAR")')
    .option('--out <file>', 'write the scenario here (default: print it); credentials go beside it as <name>.credentials.csv')
    .option('--force', 'replace --out and its credentials file if they exist', false)
    .option('--correlate <which>', 'the correlations to take: all, none, or proposal ids like c1,c3 (each is listed)', 'all')
    .option('--host <host>', 'keep requests to this host (default: the most frequent)')
    .option('--all-hosts', 'keep requests to every host (they go to the one server)', false)
    .option('--include-assets', 'keep images, CSS, scripts, fonts and media', false)
    .action(async (file: string, opts: { out?: string; force: boolean; correlate: string; host?: string; allHosts: boolean; includeAssets: boolean }) => {
      const credentials = credentialsFileFor(opts.out);
      const result = await importHarFile(file, { ...opts, correlate: correlateOption(opts.correlate), credentialsFile: credentials.named });
      writeJourney(result, credentials.path, opts);
    });
}
