import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// `loadscope run` and `show` of a capacity search, as a person runs them: a strictly sequential
// bundled server at 20 ms a request (50 req/s, whatever the machine's speed), searched from 20 req/s.

let dir: string;
let db: string;
let runJson: { runId: number; capacity?: unknown };
const cli = (...args: string[]) => spawnSync(process.execPath, [rootPath('bin/loadscope.js'), ...args, '--db', db], { encoding: 'utf8', timeout: 120_000 });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-capacity-'));
  db = join(dir, 'runs.db');
  const file = join(dir, 'search.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'cli-capacity',
      servers: [{ label: 'sequential', architecture: 'single', options: { concurrency: 1 } }],
      phases: [{ executor: 'rate', rate: 20, durationMs: 1000, timeoutMs: 5000, requests: [{ path: '/sleep?ms=20' }] }],
      capacity: { maxRate: 1000, maxSteps: 4, latency: { sample: 'total', stat: 'p99', maxMs: 300 } },
    }),
  );
  const run = cli('run', file, '--json');
  expect(run.status, run.stderr).toBe(0);
  runJson = JSON.parse(run.stdout);
}, 150_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadscope run / show of a capacity search', () => {
  it('--json carries each server\'s sustainable rate, bracket, limit, knee and steps', () => {
    const [server] = runJson.capacity as { name: string; sustainable: number; interval: [number, number]; mode: string; unit: string; limitedBy: string; knee: number; ended: string; steps: { offered: number; verdict: { held: boolean } }[] }[];
    expect(server!.name).toBe('sequential');
    // 20, 40 held; 80 broke; 60 broke (4 steps): sustainable 40, bracket [40, 60]
    expect(server!.steps.map((s) => [s.offered, s.verdict.held])).toEqual([[20, true], [40, true], [80, false], [60, false]]);
    expect(server).toMatchObject({ mode: 'rate', unit: 'req/s', sustainable: 40, interval: [40, 60], knee: 60, ended: 'step count' });
    expect(['throughput', 'latency']).toContain(server!.limitedBy);
  });

  it('show prints the capacity table and the steps; show --json the same figures as run --json', () => {
    const show = cli('show', String(runJson.runId));
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^Capacity \(the highest offered open-loop rate/m);
    expect(show.stdout).toMatch(/^sequential\s+40\s+40 – 60\s+(throughput|latency)\s+60 req\/s\s+step count/m);
    expect(show.stdout).toMatch(/^Capacity search steps/m);
    expect(show.stdout).toMatch(/^\s+80\s+[\d.]+.*broke: /m);
    const json = JSON.parse(cli('show', String(runJson.runId), '--json').stdout);
    expect(json.capacity).toEqual(runJson.capacity);
  });

  it('the HTML report has a Capacity section (table and both charts) and the PNG leads with its curves', () => {
    const html = join(dir, 'report.html');
    const png = join(dir, 'report.png');
    const out = cli('export', String(runJson.runId), '--html', html, '--png', png);
    expect(out.status, out.stderr).toBe(0);
    const text = readFileSync(html, 'utf8');
    expect(text).toMatch(/<section class="capacity" data-servers="1"><h2>Capacity /);
    expect(text).toMatch(/<tr data-server="sequential"[^>]*><td class="left">sequential<\/td><td class="num" data-value="40">40<\/td><td class="num">40 – 60<\/td>/);
    const section = text.slice(text.indexOf('<section class="capacity"'), text.indexOf('</section>', text.indexOf('<section class="capacity"')));
    expect(section).toContain('data-chart-id="capacity-curve"');
    expect(section).toContain('data-chart-id="capacity-usl"');
    // the options drawn: the knee pinned on the curve
    const data = JSON.parse(text.slice(text.indexOf('id="loadscope-data">') + 20, text.indexOf('</script>', text.indexOf('id="loadscope-data">'))));
    const curve = data.charts.find((c: { id: string }) => c.id === 'capacity-curve');
    expect(curve.option.series[0].markPoint.data[0].coord[0]).toBe(60);
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
  });

  it('a run that is not a capacity search prints no capacity section', () => {
    const file = join(dir, 'plain.json');
    writeFileSync(file, JSON.stringify({ name: 'plain', servers: [{ architecture: 'single' }], phases: [{ executor: 'burst', count: 5, requests: [{ path: '/sleep?ms=1' }] }] }));
    const run = cli('run', file, '--json');
    expect(run.status, run.stderr).toBe(0);
    const { runId, capacity } = JSON.parse(run.stdout);
    expect(capacity).toBeUndefined();
    expect(cli('show', String(runId)).stdout).not.toMatch(/Capacity/);
  });
});
