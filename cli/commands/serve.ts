import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('(not built yet)')
    .action(() => {
      throw new LoadscopeError('LS_ERR_INTERNAL', 'serve is not built yet');
    });
}
