import type { Command } from 'commander';
import { importOpenApiFile } from '../../engine/import-requests/openapi.js';
import { writeImported } from './imported-output.js';

export function registerImportOpenApi(program: Command): void {
  program
    .command('import-openapi')
    .description("make a scenario of an OpenAPI 3.0 or 3.1 description: a request per operation, its examples and credentials in a data file beside it")
    .argument('<file>', 'the description, JSON or YAML')
    .requiredOption('--out <file>', 'write the scenario here (its data file goes beside it)')
    .option('--force', 'replace --out and its data file if they exist', false)
    .option('--base-url <url>', "send to this server instead of the description's servers[0] (its path, if any, prefixes every operation's)")
    .action(async (file: string, opts: { out: string; force: boolean; baseUrl?: string }) => {
      writeImported(await importOpenApiFile(file, opts), opts);
    });
}
