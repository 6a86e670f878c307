// The legend's entries as a chart drew them, in order: each entry's lines (as cut, after ECharts laid
// them out) joined by "\n". Read from the legend's own group of the chart's display tree (ECharts'
// internals: the canvas keeps no text), so a title or an axis label is never taken for an entry. The
// screen exposes them as data-legend-drawn, the PNG's tests read them the same way.

interface Node {
  type?: string;
  invisible?: boolean;
  ignore?: boolean;
  style?: { text?: unknown };
  childrenRef?(): Node[];
}

interface Chart {
  getZr?(): { storage?: { getDisplayList(update?: boolean): unknown } };
  getModel(): { getComponent(type: string): unknown } | undefined;
  getViewOfComponentModel(model: unknown): { group?: { traverse(visit: (el: Node) => void): void } } | undefined;
}

/** `instance`: an ECharts instance (typed loosely: contract/ holds no ECharts value). */
export function drawnLegend(instance: unknown): string[] {
  const chart = instance as Chart;
  // brings every element up to date (a text's lines are laid out when it is next painted), so a
  // legend read right after setOption is the one the next frame draws
  chart.getZr?.().storage?.getDisplayList(true);
  const model = chart.getModel()?.getComponent('legend');
  if (model === undefined || model === null) return [];
  const out: string[] = [];
  chart.getViewOfComponentModel(model)?.group?.traverse((el) => {
    if (el.type !== 'text' || el.invisible === true || el.ignore === true) return;
    const lines = (el.childrenRef?.() ?? []).map((t) => t.style?.text).filter((t): t is string => typeof t === 'string');
    if (lines.length > 0) out.push(lines.join('\n'));
  });
  return out;
}
