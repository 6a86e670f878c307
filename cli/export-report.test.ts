import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../db/store.js';
import { HOSTILE_LABEL, makeReportRuns, readCsv, type ReportRuns } from './test-support/report-runs.js';

// `loadscope export` and `loadscope compare` writing files from real runs: the CSVs parse with a
// plain RFC 4180 reader and say what `show --json` and the store say; the PNG decodes to a titled,
// drawn page; nothing is overwritten without --force.

let runs: ReportRuns;
beforeAll(async () => {
  runs = await makeReportRuns();
}, 170_000);
afterAll(() => runs?.remove());

const out = (name: string) => join(runs.dir, name);

/** How many of the image's pixels in a box are not (near) white. */
async function inkIn(png: Buffer, box: { x: number; y: number; w: number; h: number }): Promise<{ width: number; height: number; ink: number }> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(box.x, box.y, Math.min(box.w, img.width - box.x), Math.min(box.h, img.height - box.y)).data;
  let ink = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200) ink++;
  return { width: img.width, height: img.height, ink };
}

describe('loadscope export', () => {
  it('--csv: one RFC 4180 row per stored request, formulas neutralised', () => {
    const [id] = runs.runIds;
    const r = runs.cli(['export', String(id), '--csv', out('requests.csv')]);
    expect(r.status, r.stderr).toBe(0);
    const rows = readCsv(readFileSync(out('requests.csv'), 'utf8'));
    const store = openStore(runs.db);
    const run = store.getRun(id);
    store.close();
    expect(rows.length).toBe(run.targets.reduce((n, t) => n + t.rawRows, 0));
    expect(rows.length).toBe(run.targets.flatMap((t) => t.phases).reduce((n, p) => n + p.count, 0));
    expect(Object.keys(rows[0]!)).toContain('total_ms');
    // the server label starts with '=': a spreadsheet must read it as text
    expect(new Set(rows.map((row) => row.server))).toContain(`'${HOSTILE_LABEL}`);
  });

  it('--csv --summary: one row per server run and phase, the figures of `show --json` rounded (ms to 3 decimals, req/s to 2)', () => {
    const [id] = runs.runIds;
    const r = runs.cli(['export', String(id), '--csv', out('summary.csv'), '--summary']);
    expect(r.status, r.stderr).toBe(0);
    const rows = readCsv(readFileSync(out('summary.csv'), 'utf8'));
    const show = runs.show(id);
    const phases = show.servers.flatMap((s) => s.phases.map((p) => ({ s, p })));
    expect(rows).toHaveLength(phases.length);
    phases.forEach(({ s, p }, i) => {
      const row = rows[i]!;
      expect(row.label).toBe(s.label.startsWith('=') ? `'${s.label}` : s.label);
      expect(row.phase).toBe(p.name);
      expect(Number(row.requests)).toBe(p.count);
      expect(Number(row.throughput_rps)).toBe(Number(p.throughput.toFixed(2)));
      expect(Number(row.duration_ms)).toBe(Number(p.durationMs.toFixed(3)));
      for (const [key, col] of [['total', 'total'], ['wait', 'wait'], ['processing', 'processing'], ['serverWait', 'server_wait'], ['lag', 'lag']] as const) {
        for (const stat of ['mean', 'p50', 'p90', 'p99', 'max'] as const) {
          const want = p[key]?.[stat];
          expect(row[`${col}_${stat}_ms`] === '' ? undefined : Number(row[`${col}_${stat}_ms`]), `${s.label} ${p.name} ${key} ${stat}`).toBe(want === undefined ? undefined : Number(want.toFixed(3)));
        }
      }
    });
    // no float noise (592.7713210000074): every figure at its stated precision
    for (const row of rows) {
      for (const [column, text] of Object.entries(row)) {
        if (column.endsWith('_ms')) expect(text, column).toMatch(/^(-?\d+(\.\d{1,3})?)?$/);
        if (column.endsWith('_rps')) expect(text, column).toMatch(/^(\d+(\.\d{1,2})?)?$/);
      }
    }
  });

  it('--png: a one-page summary that decodes, is drawn, and has its title', async () => {
    const [id] = runs.runIds;
    const r = runs.cli(['export', String(id), '--png', out('run.png')]);
    expect(r.status, r.stderr).toBe(0);
    const png = readFileSync(out('run.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const whole = await inkIn(png, { x: 0, y: 0, w: 100_000, h: 100_000 });
    expect(whole.width).toBe(1600);
    expect(whole.height).toBeGreaterThan(900);
    expect(whole.ink, 'a drawn page, not a blank one').toBeGreaterThan(whole.width * whole.height * 0.01);
    const title = await inkIn(png, { x: 20, y: 10, w: 400, h: 36 });
    expect(title.ink, 'title pixels').toBeGreaterThan(200);
    // the screen's colours: wait is orange (#f0a03e) in the mean bars, as in the app
    const img = await loadImage(png);
    const canvas = createCanvas(img.width, img.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, img.width, img.height).data;
    let orange = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i]! - 0xf0) < 8 && Math.abs(d[i + 1]! - 0xa0) < 8 && Math.abs(d[i + 2]! - 0x3e) < 8) orange++;
    expect(orange, 'orange wait bars').toBeGreaterThan(300);
  });

  it('a failed run says why at the top of its PNG (the title area is taller and red)', async () => {
    const r = runs.cli(['export', String(runs.failedRunId), '--png', out('failed.png')]);
    expect(r.status, r.stderr).toBe(0);
    const png = readFileSync(out('failed.png'));
    const img = await loadImage(png);
    const canvas = createCanvas(img.width, img.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const band = ctx.getImageData(0, 100, 1200, 40).data;
    let red = 0;
    for (let i = 0; i < band.length; i += 4) if (band[i]! > 150 && band[i + 1]! < 90 && band[i + 2]! < 90) red++;
    expect(red, 'the red reason line under the header').toBeGreaterThan(100);
  });

  it('refuses to overwrite a file unless --force', () => {
    const [id] = runs.runIds;
    const file = out('exists.html');
    writeFileSync(file, 'keep me');
    const refused = runs.cli(['export', String(id), '--html', file]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/already exists; pass --force/);
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    const streamed = runs.cli(['export', String(id), '--csv', file]);
    expect(streamed.status).not.toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    const forced = runs.cli(['export', String(id), '--html', file, '--force']);
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^<!doctype html>/);
  });
});

describe('loadscope compare --csv', () => {
  it('writes the paired table: one row per paired phase and metric, values equal each run\'s `show --json`, ratios B/A', () => {
    const [a, b] = runs.runIds;
    const r = runs.cli(['compare', String(a), String(b), '--csv', out('compare.csv')]);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(out('compare.csv'))).toBe(true);
    const rows = readCsv(readFileSync(out('compare.csv'), 'utf8'));
    const [sa, sb] = [runs.show(a), runs.show(b)];
    const phasesA = sa.servers.flatMap((s) => s.phases.map((p) => ({ s, p })));
    const totalP99 = rows.filter((row) => row.metric === 'total_p99_ms');
    expect(totalP99).toHaveLength(phasesA.length);
    for (const { s, p } of phasesA) {
      const row = totalP99.find((x) => x.server.replace(/^'/, '') === s.name && x.phase === p.name)!;
      expect(row, `${s.name} / ${p.name} is paired`).toBeDefined();
      const pb = sb.servers.find((x) => x.name === s.name)!.phases.find((x) => x.name === p.name)!;
      expect(Number(row[`run_${a}`])).toBe(Number(p.total!.p99.toFixed(3)));
      expect(Number(row[`run_${b}`])).toBe(Number(pb.total!.p99.toFixed(3)));
      expect(Number(row[`ratio_${b}_to_${a}`])).toBeCloseTo(pb.total!.p99 / p.total!.p99, 9);
    }
  });
});
