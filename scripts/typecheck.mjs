// Typechecks the four environments (contract, node, renderer, electron: one tsconfig each) at once.
// Each tsc is one single-threaded process that spends most of its time on its own: run one after
// another they took four times one core; side by side they use every core. `--skip-node`: the
// build's `tsc -p tsconfig.node.json` has just checked that project (it fails on a type error),
// so `npm test` does not check it twice.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const skipNode = process.argv.includes('--skip-node');
const projects = ['contract', 'node', 'renderer', 'electron'].filter((p) => !(skipNode && p === 'node'));

/** One project's tsc, its output kept whole so two projects' errors never interleave. */
function check(project) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [tsc, '-p', `tsconfig.${project}.json`, '--noEmit'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (err) => resolve({ project, code: 1, output: `${err.message}\n`, seconds: 0 }));
    child.on('close', (code) => resolve({ project, code: code ?? 1, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const results = await Promise.all(projects.map(check));
for (const { project, code, output, seconds } of results) {
  process.stdout.write(output);
  console.log(`typecheck: ${project} ${code === 0 ? 'ok' : 'failed'} (${seconds.toFixed(1)} s)`);
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
