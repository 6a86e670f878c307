import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { exportK6 } from '../../engine/k6/export-k6.js';
import { collectSet } from '../options.js';

function wholeNumber(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${flag} takes a whole number, got '${value}'`);
    return n;
  };
}

export function registerExportK6(program: Command): void {
  program
    .command('export-k6')
    .description('write a k6 script for one server of one cell of a scenario (or, with --operator N, the k6-operator TestRun YAML)')
    .argument('<scenario>', 'a scenario file (.json) or a built-in name')
    .option('--cell <n>', 'the matrix cell (from 0)', wholeNumber('--cell'), 0)
    .option('--server <n>', 'the server (from 0) whose label tags the points', wholeNumber('--server'), 0)
    .option('--target <url>', 'the base URL on this machine the script sends to (default: the external server\'s url, else http://127.0.0.1:8080)')
    .option('--quick', "use the scenario's quick profile", false)
    .option('--set <path=value>', 'override a scenario value (repeatable)', collectSet, {})
    .option('--operator <n>', 'print the ConfigMaps (script, one per data file) and a k6-operator TestRun with parallelism N (1-256) instead', wholeNumber('--operator'))
    .option('--cluster-target <url>', 'with --operator: the URL the runner pods send to (LOADSCOPE_TARGET; needs --allow-remote)')
    .option('--allow-remote', "consent to the script sending outside this machine (no k6 address block list)", false)
    .option('--allow-files', "consent to copying a client certificate and key (with --operator, data files too) from outside the scenario's folder into the output", false)
    .action((scenario: string, opts: { cell: number; server: number; target?: string; quick: boolean; set: Record<string, string>; operator?: number; clusterTarget?: string; allowRemote: boolean; allowFiles: boolean }) => {
      process.stdout.write(exportK6(scenario, opts));
    });
}
