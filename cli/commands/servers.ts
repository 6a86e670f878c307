import type { Command } from 'commander';
import { ARCHITECTURES, architectureDescriptions, WORKLOADS } from '../../contract/servers.js';
import { architectureOptionInfo, type OptionInfo } from '../server-options.js';

/** `loadscope servers`: the bundled architectures, what each is, and its options with defaults. */
export function registerServers(program: Command): void {
  program
    .command('servers')
    .description('list the bundled server architectures and their options')
    .option('--json', 'print the list as JSON', false)
    .action((opts: { json: boolean }) => {
      const list = ARCHITECTURES.map((name) => ({
        name,
        description: architectureDescriptions[name],
        options: architectureOptionInfo(name),
      }));
      if (opts.json) {
        process.stdout.write(JSON.stringify({ architectures: list, workloads: WORKLOADS }, null, 2) + '\n');
        return;
      }
      const out: string[] = [];
      for (const a of list) {
        out.push(`${a.name}: ${a.description}`);
        for (const o of a.options) out.push(optionLine(o));
        out.push('');
      }
      out.push(`Workloads (GET): /fib?n=30 (or min=1&max=30), /sleep?ms=40 (&block=1), /static?size=4096, /image (&image=0..N), /leak?kb=64 (keeps kb KB per request, bounded: a leaking target)`);
      out.push('Every response has Server-Timing: wait;dur=X, proc;dur=Y. Stats: GET /__stats.');
      out.push('Run one standalone: loadscope serve <architecture> [--option value ...] [--port N] [--cores K]');
      process.stdout.write(out.join('\n') + '\n');
    });
}

/**
 * One option as `servers` prints it. An option without a default (absent means something of its own,
 * which its description says) prints no default rather than "default undefined".
 */
export function optionLine(o: OptionInfo): string {
  const range = o.range ? `, ${o.range}` : '';
  const given = o.default === undefined ? '' : `default ${JSON.stringify(o.default)}`;
  return `  --${o.name} <${o.type}${range}>  ${[given, o.description].filter((x) => x !== '').join(': ')}`;
}
