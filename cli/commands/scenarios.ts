import type { Command } from 'commander';
import { listBuiltinScenarios } from '../../engine/scenario/index.js';

/** Left-aligned columns (the text here is words, not numbers). */
function table(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

/**
 * `loadscope scenarios`: the built-in scenarios. One that does not validate is listed as INVALID with
 * its problems (and exit code 1), rather than hidden or breaking the listing.
 */
export function registerScenarios(program: Command): void {
  program
    .command('scenarios')
    .description('list the built-in scenarios (name, title, servers, phases, matrix cells)')
    .option('--json', 'print the list as JSON', false)
    .action((opts: { json: boolean }) => {
      const items = listBuiltinScenarios();
      const broken = items.filter((i) => i.error !== undefined);
      if (broken.length > 0) process.exitCode = 1;
      if (opts.json) {
        process.stdout.write(JSON.stringify(items, null, 2) + '\n');
        return;
      }
      if (items.length === 0) {
        process.stdout.write('no built-in scenarios\n');
        return;
      }
      const rows = items.map((i) =>
        i.error !== undefined
          ? [i.name, 'INVALID (see below)', '', '', '']
          : [i.name, clip(i.title, 60), clip(i.servers.join(', '), 50), String(i.phases), String(i.cells)],
      );
      process.stdout.write(table(['NAME', 'TITLE', 'SERVERS', 'PHASES', 'CELLS'], rows) + '\n');
      for (const b of broken) process.stderr.write(`\n${b.name} is invalid: ${b.error}\n`);
    });
}
