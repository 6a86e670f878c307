import type { Command } from 'commander';
import { importPostmanFile } from '../../engine/import-requests/postman.js';
import { writeImported } from './imported-output.js';

export function registerImportPostman(program: Command): void {
  program
    .command('import-postman')
    .description('make a scenario of a Postman collection (v2.1): a request per item, its variables and credentials in a data file beside it')
    .argument('<file>', 'the collection (Postman: Export, Collection v2.1)')
    .requiredOption('--out <file>', 'write the scenario here (its data file goes beside it)')
    .option('--force', 'replace --out and its data file if they exist', false)
    .option('--base-url <url>', "send to this origin instead of the collection's host (the requests keep their paths)")
    .action((file: string, opts: { out: string; force: boolean; baseUrl?: string }) => {
      writeImported(importPostmanFile(file, opts), opts);
    });
}
