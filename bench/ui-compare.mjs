// The UI target of issue 13: Compare of two stored runs of 1,000,000 requests each draws its first
// chart within 1 s of opening. Makes the two runs with `loadscope run` (closed loop against a Node
// hello server, every request stored), starts the browser host on that database as a user would
// (`loadscope ui --port 0`), opens #/compare/1,2 in Chromium and times from the navigation to the
// first chart with points drawn (the chart's data-points attribute), over a few fresh page loads.
//   node bench/ui-compare.mjs [requests per run] [loads]     (defaults 1000000, 3)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { browserPath, launchBrowser, startHelloServer, startHost, writeHelloScenario } from './ui-support.mjs';

export async function measureUiCompare(root, { requests = 1_000_000, loads = 3 } = {}) {
  const executablePath = browserPath();
  if (executablePath === null) return { skipped: 'no Chromium found (apt-get install chromium)' };
  const tmp = mkdtempSync(join(os.tmpdir(), 'loadscope-ui-bench-'));
  const server = await startHelloServer();
  try {
    const db = join(tmp, 'runs.db');
    const scenario = join(tmp, 'million.json');
    writeHelloScenario(scenario, 'bench-ui-compare', server.url, { count: requests, maxDurationMs: 1_800_000 }, { rawRowCap: requests });
    for (let i = 0; i < 2; i++) {
      const r = spawnSync(process.execPath, [join(root, 'bin/loadscope.js'), 'run', scenario, '--json', '--db', db], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
      if (r.status !== 0) throw new Error(`loadscope run exited ${r.status}: ${r.stderr.slice(-400)}`);
      console.log(`ui-compare: run ${i + 1} stored (${requests.toLocaleString('en-US')} requests)`);
    }
    const host = await startHost(root, db);
    const context = await launchBrowser(executablePath, join(tmp, 'profile'));
    const times = [];
    const tables = [];
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      for (let i = 0; i < loads; i++) {
        await page.goto('about:blank');
        const start = performance.now();
        await page.goto(`${host.url}#/compare/1,2`);
        await page.locator('[data-testid="compare-latency-chart"]:not([data-points="0"])').first().waitFor({ timeout: 60_000 });
        times.push(performance.now() - start);
        // the table (runs:compare's intervals) before the next load, so each load meets an idle host
        await page.locator('[data-testid="compare-table"]').first().waitFor({ timeout: 600_000 });
        tables.push(performance.now() - start);
        console.log(`ui-compare: load ${i + 1}: first chart drawn ${Math.round(times.at(-1))} ms after opening, the table with its intervals ${Math.round(tables.at(-1))} ms`);
      }
    } finally {
      await context.close();
      host.child.kill();
    }
    const sorted = [...times].sort((a, b) => a - b);
    return { requests, loads, firstChartMs: sorted[Math.floor(sorted.length / 2)], allMs: times, tableMs: tables };
  } finally {
    server.child.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(new URL('.', import.meta.url).pathname, '..');
  console.log(JSON.stringify(await measureUiCompare(root, { requests: Number(process.argv[2] ?? 1_000_000), loads: Number(process.argv[3] ?? 3) })));
}
