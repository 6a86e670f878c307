import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';

export function registerReproduce(program: Command): void {
  program
    .command('reproduce')
    .description('(not built yet)')
    .action(() => {
      throw new LoadscopeError('LS_ERR_INTERNAL', 'reproduce is not built yet');
    });
}
