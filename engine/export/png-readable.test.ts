import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sustainableText } from '../../contract/capacity/search.js';
import { legendNames } from '../../contract/report/export-layout.js';
import { LIGHT } from '../../contract/report/palette.js';
import { buildRunReport, type RunReport } from '../../contract/report/run-report.js';
import { openStore } from '../../db/store.js';
import { rootPath } from '../paths.js';
import { forPng } from './png-fit.js';
import { chartSvg, runSummaryPng, type DrawnText } from './png.js';
import { reportInput } from './report-data.js';
import { SUMMARY_COLUMNS } from './summary-table.js';

// The one-page PNG of real stored runs, read back: a matrix whose server labels and title are long
// (8 series in every chart), and a capacity search. Its text keeps inside the page and its columns,
// every legend names every series in wrapped rows (no pager) without entries running into each
// other, every server run's row and legend entry told apart (contract/name-fit.ts), and a capacity
// search's PNG carries its capacity table.

const BIN = rootPath('bin/loadscope.js');
const dir = mkdtempSync(join(tmpdir(), 'loadscope-png-'));
const db = join(dir, 'runs.db');
const TITLE = 'A matrix of long-named servers: thread-per-request against a single-process server, varying the core count and the rate, to see every legend';

function run(scenario: object): number {
  const file = join(dir, 'scenario.json');
  writeFileSync(file, JSON.stringify(scenario));
  const out = spawnSync(process.execPath, [BIN, 'run', file, '--json', '--db', db], { encoding: 'utf8', timeout: 170_000 });
  const id = (JSON.parse(out.stdout || '{}') as { runId?: number }).runId;
  if (id === undefined) throw new Error(`run failed: ${out.stderr}`);
  return id;
}

let matrix: RunReport;
let capacity: RunReport;
beforeAll(() => {
  const matrixId = run({
    name: 'png-long-names',
    title: TITLE,
    servers: [
      { label: 'thread-per-request with a deliberately long label for the legend', architecture: 'thread-per-request' },
      { label: 'single-process event loop server, also with a long label', architecture: 'single' },
    ],
    phases: [{ name: 'steady with a longish phase name', executor: 'rate', rate: 20, durationMs: 400, requests: [{ path: '/fib?n=12' }] }],
    matrix: { 'servers[*].cores': [1, 2], 'phases[0].rate': [20, 40] },
  });
  const capacityId = run({
    name: 'png-capacity',
    servers: [{ label: 'single', architecture: 'single' }, { label: 'thread-pool-2', architecture: 'thread-pool', options: { threads: 2 } }],
    phases: [{ name: 'step', executor: 'rate', rate: 50, durationMs: 500, timeoutMs: 5000, requests: [{ path: '/fib?n=20' }] }],
    capacity: { maxRate: 400, factor: 2, tolerance: 0.25, maxSteps: 3, maxDurationMs: 5000, latency: { sample: 'total', stat: 'p99', maxMs: 250 }, maxErrorRate: 0.01, minAchievedRatio: 0.5, maxLagMs: 1000 },
  });
  const store = openStore(db);
  matrix = buildRunReport(reportInput(store, matrixId), LIGHT);
  capacity = buildRunReport(reportInput(store, capacityId), LIGHT);
  store.close();
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Texts on one baseline that overlap each other (a cut cell running into the next). */
function collisions(drawn: readonly DrawnText[]): string[] {
  const out: string[] = [];
  const rows = new Map<number, DrawnText[]>();
  for (const d of drawn) rows.set(d.y, [...(rows.get(d.y) ?? []), d]);
  for (const row of rows.values()) {
    const sorted = [...row].sort((a, b) => a.left - b.left);
    for (let i = 1; i < sorted.length; i++) if (sorted[i]!.left < sorted[i - 1]!.right) out.push(`"${sorted[i - 1]!.text}" runs into "${sorted[i]!.text}"`);
  }
  return out;
}

const measure = createCanvas(10, 10).getContext('2d');
measure.font = '12px "DejaVu Sans"';
const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

describe('the one-page PNG, readable with long names and many series', () => {
  it('keeps its title (wrapped, whole), its table cells and every line inside the page, none running into another', async () => {
    const drawn: DrawnText[] = [];
    const png = await runSummaryPng(matrix, drawn);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    for (const d of drawn) {
      expect(d.left, d.text).toBeGreaterThanOrEqual(0);
      expect(d.right, d.text).toBeLessThanOrEqual(1600 - 10);
    }
    expect(collisions(drawn)).toEqual([]);
    // column headings are never cut
    for (const c of SUMMARY_COLUMNS) expect(drawn.map((d) => d.text)).toContain(c.title);
    // the title is all there, on as many lines as it needs
    const title = drawn.filter((d) => d.y < 100).map((d) => d.text).join(' ');
    expect(title).toContain(`Run ${matrix.runId}: ${TITLE}`);
    // every server run's row, told apart (contract/name-fit.ts): a name line with figures beside it starts a row, one without continues it
    const heading = drawn.find((d) => d.text === 'server' && d.left === 20)!;
    const names: string[] = [];
    for (const d of drawn.filter((t) => t.left === 20 && t.y > heading.y)) {
      if (drawn.some((o) => o.y === d.y && o.left > 200)) names.push(d.text);
      else names[names.length - 1] += `\n${d.text}`;
    }
    expect(names).toHaveLength(matrix.rows.length);
    expect(new Set(names).size).toBe(new Set(matrix.rows.map((r) => r.server)).size);
  });

  it('draws each legend in wrapped rows with every series once, no pager, no entry over another', async () => {
    for (const id of ['latency-total', 'throughput', 'in-flight', 'server-cpu', 'percentiles-total']) {
      const chart = matrix.charts.find((c) => c.id === id)!;
      expect(legendNames(chart.option).length, id).toBe(8);
      const { option, extra } = forPng(chart.option, 790);
      expect((option.legend as { type?: string }).type, id).toBe('plain');
      const shown: string[] = [];
      const svg = await chartSvg(chart.option, 790, 380 + extra, shown);
      expect(new Set(shown).size, `${id}: every series has its own entry, as drawn`).toBe(8);
      expect(svg, `${id}: no legend pager`).not.toMatch(/>\s*\d+\/\d+\s*</);
      // each line of an entry is a <text> at its translate plus its own x and y
      const lines = new Set(shown.flatMap((e) => e.split('\n')));
      const entries = [...svg.matchAll(/<text[^>]*?text-anchor="start"([^>]*)>([^<]*)<\/text>/g)]
        .map((m) => {
          const at = (name: string) => Number(new RegExp(` ${name}="([\\d.-]+)"`).exec(m[1]!)?.[1] ?? 0);
          const t = /translate\(([\d.]+) ([\d.]+)\)/.exec(m[1]!);
          return { x: Number(t?.[1] ?? 0) + at('x'), y: Number(t?.[2] ?? 0) + at('y'), text: unescape(m[2]!) };
        })
        .filter((e) => lines.has(e.text));
      expect(new Set(entries.map((e) => e.text)), id).toEqual(lines);
      for (const a of entries) {
        for (const b of entries) {
          if (a === b || Math.abs(a.y - b.y) > 4 || b.x <= a.x) continue;
          expect(a.x + measure.measureText(a.text).width, `${id}: "${a.text}" runs into "${b.text}"`).toBeLessThanOrEqual(b.x);
        }
      }
      // the title is cut to the chart, not run off its edges
      expect(svg).not.toMatch(/translate\(-/);
    }
  });

  it("slants and cuts the mean bars' names so no two overprint, and hides value labels that would", () => {
    const { option } = forPng(matrix.charts.find((c) => c.id === 'mean-bars')!.option, 790);
    const x = option.xAxis as { data: string[]; axisLabel: { rotate?: number; width?: number; overflow?: string } };
    expect(x.axisLabel.rotate).toBeGreaterThan(0);
    expect(x.axisLabel.overflow).toBe('truncate');
    expect(new Set(x.data).size, 'each bar group keeps its own name').toBe(x.data.length);
    for (const s of option.series as { labelLayout?: { hideOverlap?: boolean } }[]) expect(s.labelLayout?.hideOverlap).toBe(true);
  });

  it("a capacity search's PNG has its capacity table: a row per server with its sustainable load", async () => {
    const drawn: DrawnText[] = [];
    await runSummaryPng(capacity, drawn);
    const heading = drawn.find((d) => d.text.startsWith('Capacity ('));
    expect(heading, 'the capacity heading').toBeDefined();
    const below = drawn.filter((d) => d.y > heading!.y);
    expect(below.some((d) => d.text.startsWith('sustainable ('))).toBe(true);
    for (const s of capacity.capacity!) {
      const row = below.find((d) => d.text === s.name && d.left === 20);
      expect(row, s.name).toBeDefined();
      const cells = below.filter((d) => d.y === row!.y).map((d) => d.text);
      // the cell the HTML report, CLI and workbench show ('≥ 200' for a lower bound)
      expect(cells).toContain(sustainableText(s.capacity.result, (v) => Number(v.toPrecision(3)).toLocaleString('en-US')));
    }
    expect(collisions(drawn)).toEqual([]);
  });
});
