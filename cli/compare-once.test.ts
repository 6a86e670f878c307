import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseRegressionRules } from '../contract/regression-rules.js';
import { compareIntervals } from '../engine/compare/compare-intervals.js';
import { regressionData } from '../engine/export/regression-data.js';
import { runSleepPhase, useTempEngine } from '../engine/test-support/temp-engine.js';
import { compareOutputs } from './commands/compare.js';

// `compare --html --csv --fail-on` builds its comparison once (issue 37): the seeded bootstrap of
// every ratio's interval (engine/compare/compare-intervals.ts, the costly part) used to be made for
// the HTML file, again for the CSV, again for the rules and once more for the table. The one builder
// is wrapped in a counting spy; two real runs of a bundled server on a real SQLite file are compared.

vi.mock('../engine/compare/compare-intervals.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../engine/compare/compare-intervals.js')>();
  return { ...original, compareIntervals: vi.fn(original.compareIntervals) };
});

const built = () => vi.mocked(compareIntervals).mock.calls.length;
const RULES = parseRegressionRules(['total.p99 > +50%', 'throughput < -50%']);

describe('compare builds its comparison once per command', () => {
  const temp = useTempEngine('compare-once');
  let out: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    out.mockRestore();
  });

  it('--html, --csv, --fail-on and the table from one command: the bootstrap is built once, and the rules judge the same verdict as built on their own', async () => {
    const a = await runSleepPhase(temp.engine, 'compare-once', 5, 1200);
    const b = await runSleepPhase(temp.engine, 'compare-once', 5, 1200);
    const [html, csv] = [join(temp.dir, 'c.html'), join(temp.dir, 'c.csv')];
    vi.mocked(compareIntervals).mockClear();

    await compareOutputs(temp.engine, [a, b], RULES, { json: true, html, csv, force: false });
    expect(built()).toBe(1);
    expect([existsSync(html), existsSync(csv)]).toEqual([true, true]);

    // the verdict from the shared comparison is the one the rules reach building their own
    const printed = JSON.parse(String(out.mock.calls.at(-1)![0])) as { regression: unknown };
    out.mockRestore();
    const own = regressionData(temp.engine.store, [a], [b], RULES);
    expect(printed.regression).toEqual(JSON.parse(JSON.stringify((await import('./format/regression.js')).regressionJson(own))));
  });
});
