import type { LineSeriesOption } from 'echarts';
import { describe, expect, it } from 'vitest';
import { capacityCurveOption, uslOption } from '../report/capacity-chart.js';
import { DARK } from '../report/palette.js';
import { bracketText, sustainableText } from './search.js';
import { step, storedSearch } from './test-support/stored-steps.js';
import { USL_MIN_R2 } from './usl.js';

// Capacity verdicts on constructed step figures (issue 24): what broke first is the server's when its
// own latency, errors or throughput failed, whatever the generator's lag; a search only the generator
// stopped is a lower bound with no knee; a search whose first step broke says so in words; a poor
// USL fit is no curve. The figures are stored phases as the engine writes them, read back the way
// every view reads them (targetCapacity).

const capacity = storedSearch;
const num = (v: number) => String(v);

describe('capacity verdicts', () => {
  it("a step where the server failed its own limits is the server's, though the generator lagged: limited by it, knee there", () => {
    // the case: 23.7 of 100 req/s achieved with p99 2.2 s while the generator ran late
    const c = capacity(step(50, 50, 40), step(100, 23.7, 2200, 30));
    expect(c.steps[1]!.verdict).toMatchObject({ held: false, limit: 'throughput', detail: expect.stringMatching(/^achieved 23.7 req\/s of 100 offered \(the generator also lagged: schedule lag p90 30 ms > 5 ms\)$/) });
    expect(c.result).toMatchObject({ limitedBy: 'throughput', kneeStep: 1, interval: [50, 100], sustainable: 50, lowerBound: false });
    expect(sustainableText(c.result, num)).toBe('50');
    const series = capacityCurveOption([{ targetId: 1, name: 's', capacity: c }], 'p99', DARK).series as LineSeriesOption[];
    expect(series[0]!.markPoint!.data).toEqual([expect.objectContaining({ coord: [100, 2200] })]);
  });

  it("latency and achieved rate are the server's when they break their bound even after the generator's worst lag is taken off", () => {
    // p99 2.2 s with sends up to 30 ms late: at least 2.17 s of it the server's
    const slow = capacity(step(50, 50, 40), step(100, 99, 2200, 30));
    expect(slow.steps[1]!.verdict).toMatchObject({ held: false, limit: 'latency', detail: "total p99 2200 ms > 250 ms (2170 ms without the generator's worst lag) (the generator also lagged: schedule lag p90 30 ms > 5 ms)" });
    expect(slow.result).toMatchObject({ limitedBy: 'latency', kneeStep: 1, lowerBound: false });
    // p99 270 ms with sends up to 30 ms late: the 20 ms over the bound may be the generator's lateness
    const late = capacity(step(50, 50, 40), step(100, 99, 270, 30));
    expect(late.steps[1]!.verdict).toMatchObject({ held: false, limit: 'generator' });
    expect(late.result).toMatchObject({ limitedBy: 'generator', kneeStep: null, lowerBound: true });
    // 93 of 100 req/s over a 1 s step whose sends ran up to 60 ms late: 93 requests in 0.94 s is 98.9
    // req/s, so the shortfall may be the generator's; 23.7 of 100 is the server's whatever the lag
    expect(capacity(step(50, 50, 40), step(100, 93, 60, 60)).steps[1]!.verdict).toMatchObject({ held: false, limit: 'generator' });
    expect(capacity(step(50, 50, 40), step(100, 23.7, 60, 60)).steps[1]!.verdict).toMatchObject({ held: false, limit: 'throughput' });
  });

  it('only the generator lagged: a lower bound, no knee pin, and "at least" in the table', () => {
    const c = capacity(step(50, 50, 40), step(100, 100, 50), step(200, 199, 60, 12));
    expect(c.steps[2]!.verdict).toMatchObject({ held: false, limit: 'generator' });
    expect(c.result).toMatchObject({ limitedBy: 'generator', kneeStep: null, interval: [100, null], sustainable: 100, lowerBound: true });
    expect(c.result.detail).toMatch(/could not keep its schedule at 200 req\/s .* while the server held every limit: the server's capacity is at least 100 req\/s/);
    expect(sustainableText(c.result, num)).toBe('≥ 100');
    expect(bracketText(c.result, num)).toBe('at least 100');
    const series = capacityCurveOption([{ targetId: 1, name: 's', capacity: c }], 'p99', DARK).series as LineSeriesOption[];
    expect(series[0]!.markPoint).toBeUndefined();
  });

  it('no step held: "below 100: the first step already broke", never "- – 100" nor "at least 0"', () => {
    const first = capacity(step(100, 23.7, 2200, 30));
    expect(bracketText(first.result, num)).toBe('below 100');
    expect(sustainableText(first.result, num)).toBe('-');
    expect(first.result.detail).toMatch(/below 100 req\/s: the first step already broke/);
    expect(first.result.detail).not.toMatch(/at least 0/);
    const down = capacity(step(100, 20, 2200), step(50, 20, 1500), step(25, 20, 900), step(12.5, 12, 400));
    expect(bracketText(down.result, num)).toBe('below 12.5');
    expect(down.result.detail).toMatch(/below 12.5 req\/s: every load offered broke/);
    // the first step's sends ran late with the server holding: nothing measured, said so
    const none = capacity(step(100, 100, 40, 30));
    expect(bracketText(none.result, num)).toBe('not measured');
    expect(none.result.detail).toMatch(/nothing was measured of the server/);
  });

  it(`a poor scalability fit (R² below ${USL_MIN_R2}) draws no curve, keeps its figures and says why`, () => {
    // throughput that jumps about at nearly the same concurrency (10 to 13 in flight): no USL explains it
    const c = capacity(step(50, 100, 300), step(100, 20, 1800), step(200, 180, 183), step(400, 30, 1300));
    expect(c.usl).not.toBeNull();
    expect(c.usl!.r2).toBeLessThan(USL_MIN_R2);
    expect(c.uslNote).toMatch(/^poor fit \(R² -?[\d.]+ below 0.8\): no curve drawn/);
    const series = uslOption([{ targetId: 1, name: 's', capacity: c }], DARK).series as { type: string }[];
    expect(series.map((s) => s.type)).toEqual(['scatter']);
    // a good fit is still drawn
    const good = capacity(step(50, 50, 40), step(100, 100, 60), step(200, 195, 70), step(400, 300, 400));
    expect(good.usl!.r2).toBeGreaterThanOrEqual(USL_MIN_R2);
    expect(good.uslNote).toBeNull();
    expect((uslOption([{ targetId: 1, name: 's', capacity: good }], DARK).series as { type: string }[]).map((s) => s.type)).toEqual(['scatter', 'line']);
  });
});
