// The colours of every Loadscope chart, wherever it is drawn: the screen (dark), and the exports
// (PNG, HTML: light, on white). Series colours are the same in both, so wait is orange in the app,
// in the PNG and in the HTML report; only text, axes and grid lines change with the background.

export const TARGET_COLORS = ['#5b9dff', '#f0883e', '#3fb950', '#c297ff', '#ff6b8b', '#39c5cf', '#e3b341', '#a0a8b8'] as const;
export const METRIC_COLORS = { total: '#5b9dff', wait: '#f0a03e', processing: '#3fb950' } as const;
export const ERROR_COLOR = '#f85149';

export const colorAt = (i: number): string => TARGET_COLORS[i % TARGET_COLORS.length]!;

export interface Palette {
  /** what the chart is drawn on: 'transparent' on screen (the panel shows through), white in exports */
  background: string;
  text: string;
  muted: string;
  line: string;
  split: string;
  tooltipBackground: string;
  tooltipBorder: string;
  tooltipText: string;
  phaseLine: string;
  phaseLabel: string;
}

export const DARK: Palette = {
  background: 'transparent',
  text: '#c9d1dc',
  muted: '#8b95a7',
  line: '#2b3342',
  split: '#222938',
  tooltipBackground: '#1b212c',
  tooltipBorder: '#333c4d',
  tooltipText: '#e3e7ee',
  phaseLine: '#8b95a7',
  phaseLabel: '#aab3c2',
};

export const LIGHT: Palette = {
  background: '#ffffff',
  text: '#1f2328',
  muted: '#57606a',
  line: '#afb8c1',
  split: '#eaeef2',
  tooltipBackground: '#ffffff',
  tooltipBorder: '#d0d7de',
  tooltipText: '#1f2328',
  phaseLine: '#57606a',
  phaseLabel: '#57606a',
};

export const FONT_FAMILY = "Inter, 'Segoe UI', 'DejaVu Sans', system-ui, sans-serif";
