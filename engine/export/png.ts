import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import type { EChartsOption } from 'echarts';
import { drawnLegend } from '../../contract/report/drawn-legend.js';
import { withFormatters } from '../../contract/report/formatters.js';
import { againstText, CONFIRM_WITH_REPEAT, ONE_RUN_NOISE, regressionTallyText, verdictRuleLine } from '../../contract/regression-words.js';
import { regressionTally } from '../../contract/run-verdict.js';
import { LIGHT } from '../../contract/report/palette.js';
import type { ReportChart, RunReport } from '../../contract/report/run-report.js';
import { CAPACITY_MEANS, LOWER_BOUND_NOTE, modeOf, OFFERED_UNIT } from '../../contract/capacity/search.js';
import { shortReason } from '../../contract/report/short-reason.js';
import { fitNames } from '../../contract/name-fit.js';
import { fitText, wrapText } from './canvas-text.js';
import { pngDiagnosis } from './png-diagnosis.js';
import { forPng, measure, PNG_FONT } from './png-fit.js';
import { capacityCells, capacityColumns, streamLines, STREAM_TABLE_COLUMNS, summaryLines, SUMMARY_COLUMNS, type Column } from './summary-table.js';

// PNGs without a window: ECharts renders the report's chart options to SVG on the server side and
// @napi-rs/canvas rasterises them on white, with the title drawn into the image.

/** One chart option as an SVG string (ECharts server-side rendering); `legend` receives its legend's entries as drawn. */
export async function chartSvg(option: EChartsOption, width: number, height: number, legend?: string[]): Promise<string> {
  // ECharts takes about a second to load: only when a figure is asked for, not at every CLI start.
  const echarts = await import('echarts');
  // ECharts lays text out by its measurements: the real font's, so a cut label is cut where it will be drawn
  echarts.setPlatformAPI({ measureText: (text: string, font?: string) => {
    measure.font = font ?? `12px ${PNG_FONT}`;
    return { width: measure.measureText(text).width };
  } });
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  chart.setOption(withFormatters(forPng(option, width).option));
  const svg = chart.renderToSVGString();
  legend?.push(...drawnLegend(chart));
  chart.dispose();
  return svg;
}

async function drawChart(ctx: SKRSContext2D, chart: ReportChart, x: number, y: number, w: number, h: number): Promise<void> {
  ctx.drawImage(await loadImage(Buffer.from(await chartSvg(chart.option, w, h))), x, y);
}

const WIDTH = 1600;
const FONT = PNG_FONT;
const PAD = 20;
const TEXT_W = WIDTH - 2 * PAD;
const CHART_W = 790;
const CHART_H = 380;
const ROW_H = 22;
const MAIN_CHARTS = ['latency-total', 'percentiles-total', 'throughput', 'mean-bars', 'server-cpu', 'in-flight', 'heatmap', 'rt-throughput'];
const RED = '#cf222e';

interface Line {
  text: string;
  font: string;
  color: string;
  /** the line's height: its baseline sits this far below the previous line's */
  h: number;
}

/** The header's lines, wrapped and cut to the page: title, subtitle, machine, thresholds, what happened, why the run failed. */
function headerLines(ctx: SKRSContext2D, report: RunReport): Line[] {
  const lines: Line[] = [];
  const add = (text: string, font: string, color: string, h: number, max = 1) => {
    ctx.font = font;
    for (const t of wrapText(ctx, text, TEXT_W, max)) lines.push({ text: t, font, color, h });
  };
  add(report.title, `bold 26px ${FONT}`, LIGHT.text, 34, 3);
  add(report.subtitle, `15px ${FONT}`, LIGHT.muted, 24);
  // the run's note, its own lines kept, in at most four lines (the HTML report has it whole)
  const note = (report.note ?? '').split(/\r\n|\r|\n/).filter((l) => l.trim() !== '');
  let room = 4;
  for (let i = 0; i < note.length && room > 0; i++) {
    const before = lines.length;
    add(room === 1 && i < note.length - 1 ? `${note[i]} ...` : note[i]!, `italic 15px ${FONT}`, LIGHT.text, 22, room);
    room -= lines.length - before;
  }
  const m = report.machine;
  if (m) add(`${m.hostname} · ${m.platform} · ${m.cpus} × ${m.cpuModel} · Node ${m.node} · Loadscope ${m.loadscope}`, `15px ${FONT}`, LIGHT.muted, 22);
  const failed = report.thresholds.filter((t) => !t.passed).length;
  if (report.thresholds.length > 0) add(`thresholds: ${failed === 0 ? `all ${report.thresholds.length} passed` : `${failed} of ${report.thresholds.length} failed`}`, `15px ${FONT}`, failed === 0 ? '#1a7f37' : RED, 22);
  // the regression verdict of `run --baseline` (issue 36): its tally, then each failed rule where it failed
  const v = report.regression;
  if (v !== null) {
    const tally = regressionTally(v)!;
    add(regressionTallyText(tally, againstText(v)), `15px ${FONT}`, tally.failed === 0 ? '#1a7f37' : RED, 22);
    for (const r of v.rules.filter((x) => x.verdict === 'fail')) add(verdictRuleLine(r), `14px ${FONT}`, RED, 20, 2);
    if (tally.oneRun) add(`${ONE_RUN_NOISE}; ${CONFIRM_WITH_REPEAT}`, `13px ${FONT}`, LIGHT.muted, 19, 2);
  }
  // in place of empty CPU and memory frames: why there are none (Loadscope does not run the server)
  if (report.serverSamplesNote !== null) add(report.serverSamplesNote, `14px ${FONT}`, LIGHT.muted, 20, 2);
  if (report.problem) add(report.problem.split('\n')[0]!, `bold 18px ${FONT}`, RED, 30, 2);
  for (const t of report.targetProblems) add(`${t.server}: ${t.status}${t.reason ? ` - ${shortReason(t.reason).join(' ')}` : ''}`, `14px ${FONT}`, RED, 22);
  // What happened: the top findings, two lines each at most, after why a run failed (read first)
  const d = pngDiagnosis(report);
  if (d !== null) {
    add('What happened', `bold 16px ${FONT}`, LIGHT.text, 26);
    for (const f of d.items) add(f.text, `14px ${FONT}`, f.kind === 'finding' ? LIGHT.text : LIGHT.muted, 20, 2);
    if (d.more !== null) add(d.more, `13px ${FONT}`, LIGHT.muted, 19);
  }
  return lines;
}

/** A piece of text the page drew, where it went (for tests that read the page back). */
export interface DrawnText {
  text: string;
  left: number;
  right: number;
  y: number;
}
type Put = (text: string, x: number, y: number) => void;

/** A line of a cell wrapped onto a second: this far below the first. */
const WRAP_H = 16;

/** A table's rows as drawn: each first cell (a server run's name) fitted to its column by contract/name-fit.ts, on up to two lines. */
interface LaidTable {
  columns: readonly Column[];
  rows: { cells: readonly string[]; name: string[] }[];
  /** the table's height, heading row included */
  height: number;
}

function layTable(ctx: SKRSContext2D, columns: readonly Column[], rows: readonly (readonly string[])[]): LaidTable {
  ctx.font = `13px ${FONT}`;
  const named = rows.map((r) => r[0] ?? '').filter((n) => n !== '');
  const fitted = fitNames(named, { max: columns[0]!.width - 18, lines: 2, measure: (t) => ctx.measureText(t).width });
  const byName = new Map(named.map((n, i) => [n, fitted[i]!.split('\n')]));
  const laid = rows.map((cells) => ({ cells, name: byName.get(cells[0] ?? '') ?? [''] }));
  return { columns, rows: laid, height: ROW_H * (rows.length + 1) + laid.reduce((h, r) => h + (r.name.length - 1) * WRAP_H, 0) };
}

/** A table of fixed columns, every other cell cut to its column with "..."; returns the y below it. */
function drawTable(ctx: SKRSContext2D, put: Put, { columns, rows }: LaidTable, y: number): number {
  const drawRow = (cells: readonly string[], name: readonly string[], bold: boolean) => {
    ctx.font = `${bold ? 'bold ' : ''}13px ${FONT}`;
    let x = PAD;
    cells.forEach((c, i) => {
      const col = columns[i]!;
      ctx.textAlign = col.align;
      const at = col.align === 'right' ? x + col.width - 6 : x + (i > 0 ? 12 : 0);
      if (i === 0) name.forEach((line, k) => line !== '' && put(line, at, y + k * WRAP_H));
      else put(fitText(ctx, c, col.width - 18), at, y);
      x += col.width;
    });
    ctx.textAlign = 'left';
    y += ROW_H + (name.length - 1) * WRAP_H;
  };
  ctx.fillStyle = LIGHT.text;
  drawRow(columns.map((c) => c.title), [columns[0]!.title], true);
  for (const r of rows) drawRow(r.cells, r.name, false);
  return y;
}

/** A run on one page: header (and why it failed), the per-phase summary table, a capacity search's table, the main charts. */
export async function runSummaryPng(report: RunReport, drawn?: DrawnText[]): Promise<Buffer> {
  const measureCtx = createCanvas(10, 10).getContext('2d');
  const table = layTable(measureCtx, SUMMARY_COLUMNS, summaryLines(report.rows).slice(0, 40));
  const capacity = report.capacity !== null && report.capacity.length > 0 ? report.capacity : null;
  // a capacity search leads with its two curves
  const main = capacity !== null ? ['capacity-curve', 'capacity-usl', ...MAIN_CHARTS.slice(0, 4)] : MAIN_CHARTS;
  const charts = main.map((id) => report.charts.find((c) => c.id === id)).filter((c): c is ReportChart => c !== undefined);
  const lines = headerLines(measureCtx, report);
  const headerH = 16 + lines.reduce((h, l) => h + l.h, 0) + 14;
  const tableH = 10 + table.height + 10;
  // what arrived on the run's streams (issue 41), under the phases
  const streams = report.streams.length === 0 ? null : layTable(measureCtx, STREAM_TABLE_COLUMNS, streamLines(report.streams).slice(0, 40));
  const streamsH = streams === null ? 0 : 50 + streams.height;
  const capacityTable = capacity === null ? null : layTable(measureCtx, capacityColumns(OFFERED_UNIT[modeOf(capacity)]), capacity.map(capacityCells));
  const capacityH = capacity === null || capacityTable === null ? 0 : 30 + capacityTable.height + 18 * (capacity.length + 1) + 16;
  const chartRows: number[] = [];
  for (let i = 0; i < charts.length; i += 2) chartRows.push(CHART_H + Math.max(...charts.slice(i, i + 2).map((c) => forPng(c.option, CHART_W).extra)));
  const height = headerH + tableH + streamsH + capacityH + chartRows.reduce((a, h) => a + h + 10, 0) + 20;

  const canvas = createCanvas(WIDTH, height);
  const ctx = canvas.getContext('2d');
  const put: Put = (text, x, at) => {
    ctx.fillText(text, x, at);
    const w = ctx.measureText(text).width;
    const left = ctx.textAlign === 'right' ? x - w : x;
    drawn?.push({ text, left, right: left + w, y: at });
  };
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, WIDTH, height);
  let y = 16;
  for (const l of lines) {
    y += l.h;
    ctx.font = l.font;
    ctx.fillStyle = l.color;
    put(l.text, PAD, y - 8);
  }

  y = drawTable(ctx, put, table, headerH + 10);
  if (streams !== null) {
    y += 24;
    ctx.font = `bold 16px ${FONT}`;
    ctx.fillStyle = LIGHT.text;
    put('Streams', PAD, y);
    y = drawTable(ctx, put, streams, y + 26);
  }
  if (capacity !== null && capacityTable !== null) {
    y += 24;
    const mode = modeOf(capacity);
    ctx.font = `bold 16px ${FONT}`;
    ctx.fillStyle = LIGHT.text;
    put(fitText(ctx, `Capacity (${CAPACITY_MEANS[mode]})`, TEXT_W), PAD, y);
    y = drawTable(ctx, put, capacityTable, y + 26);
    ctx.font = `13px ${FONT}`;
    ctx.fillStyle = LIGHT.muted;
    const bounded = capacity.filter((s) => s.capacity.result.lowerBound).map((s) => s.name);
    if (bounded.length > 0) {
      put(fitText(ctx, `Note: ${LOWER_BOUND_NOTE}: ${bounded.join(', ')}.`, TEXT_W), PAD, y);
      y += 18;
    }
    for (const s of capacity) {
      put(fitText(ctx, `${s.name}: ${s.capacity.result.detail}${s.capacity.uslNote ? `; no scalability fit: ${s.capacity.uslNote}` : ''}`, TEXT_W), PAD, y);
      y += 18;
    }
  }

  let top = headerH + tableH + streamsH + capacityH;
  for (let i = 0; i < charts.length; i++) {
    const rowH = chartRows[Math.floor(i / 2)]!;
    await drawChart(ctx, charts[i]!, 10 + (i % 2) * CHART_W, top, CHART_W, rowH);
    if (i % 2 === 1) top += rowH + 10;
  }
  return canvas.toBuffer('image/png');
}
