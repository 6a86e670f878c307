import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';

export function registerServers(program: Command): void {
  program
    .command('servers')
    .description('(not built yet)')
    .action(() => {
      throw new LoadscopeError('LS_ERR_INTERNAL', 'servers is not built yet');
    });
}
