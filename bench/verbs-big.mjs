// Verbs over big runs (issue 29): the whole `loadscope compare 1 2`, `show 2` and `trend big`
// processes over two stored runs of ~650k requests each (and, with --long, of 10M), as a user meets
// them: Node's start-up, the CLI chunks, the store, the intervals. The runs are written straight
// through the store (bench/big-runs.mjs), built once per size and cached in the temp folder. The
// first call of each command warms the page cache (a user's second look); then `rounds` interleaved
// rounds, medians. Targets: compare of ~650k < 0.5 s; compare / show / trend of 10M < 1 s.
import { join } from 'node:path';
import { bigRunsDb } from './big-runs.mjs';
import { measureProcess, median } from './process-cost.mjs';

export const BIG_TARGETS_MS = { 650_000: 500, 10_000_000: 1000 };

export async function measureBigVerbs(root, { sizes, rounds }) {
  const bin = join(root, 'bin', 'loadscope.js');
  const out = [];
  for (const requests of sizes) {
    const db = await bigRunsDb(root, requests);
    const commands = [
      ['compare', [bin, 'compare', '1', '2', '--db', db]],
      ['show', [bin, 'show', '2', '--db', db]],
      ['trend', [bin, 'trend', 'big', '--db', db]],
    ];
    // what compare said: its intervals exist (a verb that read nothing would be fast too)
    const json = await measureProcess(process.execPath, [bin, 'compare', '1', '2', '--json', '--db', db], { cwd: root, stdout: 'pipe' });
    const intervals = json.code === 0 ? JSON.parse(json.stdout).pairs.flatMap((p) => p.figures.flatMap((f) => f.ratios)).filter((r) => r && r.low !== null).length : -1;
    for (const [, args] of commands) await measureProcess(process.execPath, args, { cwd: root });
    const samples = commands.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (const [j, [, args]] of commands.entries()) samples[j].push(await measureProcess(process.execPath, args, { cwd: root }));
    }
    for (const [j, [verb]] of commands.entries()) {
      const wall = samples[j].map((s) => s.wallS * 1000);
      const cpu = samples[j].map((s) => s.cpuS).filter((x) => x !== null).map((x) => x * 1000);
      const line = { requests, verb, wallMs: median(wall), wallMinMs: Math.min(...wall), wallMaxMs: Math.max(...wall), cpuMs: cpu.length ? median(cpu) : null, exit: samples[j][0].code, intervals: verb === 'compare' ? intervals : null };
      console.log(`${verb} of two runs of ${requests.toLocaleString('en-US')} requests: ${line.wallMs.toFixed(0)} ms wall (${line.wallMinMs.toFixed(0)}-${line.wallMaxMs.toFixed(0)}), ${line.cpuMs === null ? "?" : line.cpuMs.toFixed(0)} ms CPU, exit ${line.exit}${verb === 'compare' ? `, ${intervals} intervals` : ''}`);
      out.push(line);
    }
  }
  return out;
}

// alone: node bench/verbs-big.mjs [requests...] (after npx tsc -p tsconfig.node.json and node scripts/build-cli.mjs)
if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((x) => x > 0);
  await measureBigVerbs(join(import.meta.dirname, '..'), { sizes: sizes.length ? sizes : [650_000], rounds: 3 });
}
