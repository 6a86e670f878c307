import { echarts } from './echarts-parts';
import type { EChartsOption } from 'echarts';
import { withFormatters } from '../../contract/report/formatters';

// A chart as a PNG, the way the reports draw it: the report model's option in the light palette
// with the title in the image, drawn off screen at twice the pixel ratio on white.

export const PNG_SIZE = { width: 1200, height: 520 } as const;

export function chartDataUrl(option: EChartsOption): string {
  const box = document.createElement('div');
  box.style.cssText = `position:fixed;left:-20000px;top:0;width:${PNG_SIZE.width}px;height:${PNG_SIZE.height}px`;
  document.body.append(box);
  const chart = echarts.init(box, null, { renderer: 'canvas', width: PNG_SIZE.width, height: PNG_SIZE.height });
  try {
    chart.setOption(withFormatters(option));
    return chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' });
  } finally {
    chart.dispose();
    box.remove();
  }
}

export function downloadDataUrl(url: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/** A file name from a chart title: "Server CPU" -> loadscope-server-cpu.png */
export const pngName = (title: string): string => `loadscope-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}.png`;
