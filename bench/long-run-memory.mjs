// A long run's memory (issue 13's "5M-request run < 400 MB"; issue 29 asked that the run behind that
// figure be in the repository): `loadscope run` of one closed phase of 50 users and `count` requests
// (5,000,000 by default) against the same nginx as bench/agreement.mjs (a 4 KB file, one worker on
// core 1), the generator's whole process on core 0, under the default raw-row cap (the first
// 1,000,000 rows kept, a sample after: what a user's long run stores). Reports the whole process's
// peak resident set (GNU time's maximum RSS: main thread, driver worker, SQLite), its CPU and wall
// time, and the requests per second. Takes ~3 min on a quiet 2-core machine; `npm run bench -- --long`
// runs it, or alone: node bench/long-run-memory.mjs [requests]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { startServer } from './agreement.mjs';
import { measureProcess } from './process-cost.mjs';

export const LONG_RUN_REQUESTS = 5_000_000;
export const LONG_RUN_TARGET_MB = 400;
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** The scenario of the run: what `loadscope run` is given, written beside its database. */
export function longRunScenario(baseUrl, requests) {
  return {
    name: 'bench-long-run',
    title: `closed loop, 50 users, ${requests} requests, default raw-row cap`,
    servers: [{ label: 'nginx', architecture: 'external', url: baseUrl }],
    phases: [{ name: 'load', executor: 'closed', users: 50, count: requests, requests: [{ path: '/4k.html' }] }],
  };
}

export async function measureLongRun(root, { requests = LONG_RUN_REQUESTS } = {}) {
  const tmp = mkdtempSync(join(os.tmpdir(), 'loadscope-long-run-'));
  const server = await startServer(tmp);
  try {
    const scenarioFile = join(tmp, 'long-run.json');
    writeFileSync(scenarioFile, JSON.stringify(longRunScenario(server.url.replace(/\/4k\.html$/, ''), requests), null, 2));
    const args = [join(root, 'bin', 'loadscope.js'), 'run', scenarioFile, '--json', '--db', join(tmp, 'runs.db')];
    const r = await measureProcess(process.execPath, args, { cwd: root, pin: hasTaskset ? 0 : undefined, stdout: 'pipe', peakMemory: true });
    if (r.code !== 0) throw new Error(`loadscope run exited with ${r.code}: ${r.stderr.slice(-500)}`);
    const run = JSON.parse(r.stdout);
    if (run.status !== 'completed') throw new Error(`loadscope run ended ${run.status}: ${run.reason}`);
    const ph = run.servers[0].phases[0];
    const line = { requests: ph.count, peakMB: r.peakMB, cpuS: r.cpuS, wallS: r.wallS, perS: ph.count / (ph.durationMs / 1000), server: server.name, pinned: hasTaskset, targetMB: LONG_RUN_TARGET_MB };
    console.log(
      `long run: ${line.requests.toLocaleString('en-US')} requests at ${Math.round(line.perS)} req/s, peak RSS ${line.peakMB === null ? '? (no /usr/bin/time)' : `${Math.round(line.peakMB)} MiB`}, ` +
        `${line.cpuS?.toFixed(1)} CPU-s, ${line.wallS.toFixed(1)} s wall`,
    );
    return line;
  } finally {
    server.child.kill();
    await once(server.child, 'exit').catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(import.meta.dirname, '..');
  const requests = Number(process.argv[2] ?? LONG_RUN_REQUESTS);
  console.log(JSON.stringify(await measureLongRun(root, { requests })));
}
