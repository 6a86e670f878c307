import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { RunSummary } from '../../contract/results.js';

const WIDTH = 1200;
const HEIGHT = 520;

/** A run's headline figure as PNG: mean wait / processing / total per server run (seed 000's figure). */
export async function renderRunPng(run: RunSummary): Promise<Buffer> {
  const labels: string[] = [];
  const wait: number[] = [];
  const processing: number[] = [];
  const total: number[] = [];
  for (const target of run.targets) {
    for (const phase of target.phases) {
      if (phase.count === 0) continue;
      labels.push(`${target.name}\n${phase.name}`);
      wait.push(round(phase.wait.mean));
      processing.push(round(phase.processing?.mean ?? 0));
      total.push(round(phase.total.mean));
    }
  }
  // ECharts takes about a second to load: only when a PNG is asked for, not at every CLI start.
  const echarts = await import('echarts');
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: HEIGHT });
  chart.setOption({
    animation: false,
    backgroundColor: '#ffffff',
    title: { text: `Run ${run.id}: ${run.title}`, subtext: `${run.status} · ${run.createdAt}${run.quick ? ' · quick profile' : ''}`, left: 'center' },
    legend: { bottom: 0 },
    grid: { left: 80, right: 30, top: 80, bottom: 90 },
    tooltip: {},
    xAxis: { type: 'category', data: labels, axisLabel: { interval: 0, fontSize: 11 } },
    yAxis: { type: 'value', name: 'mean time (ms)', nameLocation: 'middle', nameGap: 55 },
    series: [
      { type: 'bar', name: 'wait', data: wait },
      { type: 'bar', name: 'processing', data: processing },
      { type: 'bar', name: 'total', data: total },
    ],
  });
  const svg = chart.renderToSVGString();
  chart.dispose();
  const canvas = createCanvas(WIDTH, HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  ctx.drawImage(await loadImage(Buffer.from(svg)), 0, 0);
  return canvas.toBuffer('image/png');
}

const round = (x: number) => Math.round(x * 100) / 100;
