import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import type { EChartsOption } from 'echarts';
import { withFormatters } from '../../contract/report/formatters.js';
import { LIGHT } from '../../contract/report/palette.js';
import type { ReportChart, RunReport } from '../../contract/report/run-report.js';
import { summaryCells, SUMMARY_COLUMNS } from './summary-table.js';

// PNGs without a window: ECharts renders the report's chart options to SVG on the server side and
// @napi-rs/canvas rasterises them on white, with the title drawn into the image.

/** One chart option as an SVG string (ECharts server-side rendering). */
export async function chartSvg(option: EChartsOption, width: number, height: number): Promise<string> {
  // ECharts takes about a second to load: only when a figure is asked for, not at every CLI start.
  const echarts = await import('echarts');
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  chart.setOption(withFormatters(option));
  const svg = chart.renderToSVGString();
  chart.dispose();
  return svg;
}

async function drawChart(ctx: SKRSContext2D, chart: ReportChart, x: number, y: number, w: number, h: number): Promise<void> {
  ctx.drawImage(await loadImage(Buffer.from(await chartSvg(chart.option, w, h))), x, y);
}

/** One chart alone, as a PNG on white. */
export async function chartPng(chart: ReportChart, width = 1200, height = 520): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  await drawChart(ctx, chart, 0, 0, width, height);
  return canvas.toBuffer('image/png');
}

const WIDTH = 1600;
const CHART_W = 790;
const CHART_H = 380;
const MAIN_CHARTS = ['latency-total', 'percentiles-total', 'throughput', 'mean-bars', 'server-cpu', 'in-flight'];
const FONT = '"DejaVu Sans", "Liberation Sans", sans-serif';

/** A run on one page: header (and why it failed), the per-phase summary table, the main charts. */
export async function runSummaryPng(report: RunReport): Promise<Buffer> {
  const rows = report.rows.slice(0, 40);
  const headerH = 110 + (report.problem ? 34 : 0) + report.targetProblems.length * 22;
  const tableH = 30 + 22 * (rows.length + 1);
  // a capacity search leads with its two curves
  const main = report.capacity !== null && report.capacity.length > 0 ? ['capacity-curve', 'capacity-usl', ...MAIN_CHARTS.slice(0, 4)] : MAIN_CHARTS;
  const charts = main.map((id) => report.charts.find((c) => c.id === id)).filter((c): c is ReportChart => c !== undefined);
  const height = headerH + tableH + Math.ceil(charts.length / 2) * (CHART_H + 10) + 20;
  const canvas = createCanvas(WIDTH, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, WIDTH, height);

  let y = 40;
  ctx.fillStyle = LIGHT.text;
  ctx.font = `bold 26px ${FONT}`;
  ctx.fillText(report.title, 20, y);
  y += 30;
  ctx.font = `15px ${FONT}`;
  ctx.fillStyle = LIGHT.muted;
  ctx.fillText(report.subtitle, 20, y);
  y += 22;
  const m = report.machine;
  if (m) ctx.fillText(`${m.hostname} · ${m.platform} · ${m.cpus} × ${m.cpuModel} · Node ${m.node} · Loadscope ${m.loadscope}`, 20, y);
  y += 18;
  const failedThresholds = report.thresholds.filter((t) => !t.passed).length;
  if (report.thresholds.length > 0) {
    ctx.fillStyle = failedThresholds === 0 ? '#1a7f37' : '#cf222e';
    ctx.fillText(`thresholds: ${failedThresholds === 0 ? `all ${report.thresholds.length} passed` : `${failedThresholds} of ${report.thresholds.length} failed`}`, 900, 62);
  }
  if (report.problem) {
    y += 16;
    ctx.fillStyle = '#cf222e';
    ctx.font = `bold 18px ${FONT}`;
    ctx.fillText(report.problem, 20, y);
    y += 18;
  }
  ctx.font = `14px ${FONT}`;
  for (const t of report.targetProblems) {
    ctx.fillStyle = '#cf222e';
    ctx.fillText(`${t.server}: ${t.status}${t.reason ? ` - ${t.reason}` : ''}`, 20, y + 4);
    y += 22;
  }

  // the summary table
  y = headerH + 10;
  const widths = SUMMARY_COLUMNS.map((c) => c.width);
  const drawRow = (cells: readonly string[], bold: boolean) => {
    ctx.font = `${bold ? 'bold ' : ''}13px ${FONT}`;
    let x = 20;
    cells.forEach((c, i) => {
      const right = i > 1;
      const w = widths[i]!;
      ctx.textAlign = right ? 'right' : 'left';
      ctx.fillText(c, right ? x + w - 6 : x, y);
      x += w;
    });
    ctx.textAlign = 'left';
    y += 22;
  };
  ctx.fillStyle = LIGHT.text;
  drawRow(SUMMARY_COLUMNS.map((c) => c.title), true);
  for (const r of rows) drawRow(summaryCells(r), false);

  const top = headerH + tableH;
  for (let i = 0; i < charts.length; i++) {
    await drawChart(ctx, charts[i]!, 10 + (i % 2) * (CHART_W + 0), top + Math.floor(i / 2) * (CHART_H + 10), CHART_W, CHART_H);
  }
  return canvas.toBuffer('image/png');
}
