import type { Locator } from 'playwright-core';

// The texts a chart drew (its data-texts attribute, set where EChart has drawnText): a canvas has no
// text to read, so an overprint is found from the boxes the chart reports.

export interface Drawn {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the chart says it drew, [] before its first draw. */
export const textsOf = async (chart: Locator): Promise<Drawn[]> => JSON.parse((await chart.getAttribute('data-texts')) ?? '[]') as Drawn[];

/** Two texts over one another (a pixel of touching allowed). */
const overlap = (a: Drawn, b: Drawn): boolean => a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;

/** Every pair of texts drawn over one another, as "a / b". */
export const overprinted = (texts: readonly Drawn[]): string[] => texts.flatMap((a, i) => texts.slice(i + 1).filter((b) => overlap(a, b)).map((b) => `${a.text} / ${b.text}`));
