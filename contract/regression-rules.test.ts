import { describe, expect, it } from 'vitest';
import { intervalFails, MAX_RULES, parseRegressionRule, parseRegressionRules, ruleUnit } from './regression-rules.js';
import { ruleChangeText, ruleValueText } from './regression-words.js';

// The --fail-on grammar: relative (%) and absolute margins, scopes with quoted values, and every
// mistake refused with the rule and what is wrong (LS_ERR_BAD_REQUEST), never read as something else.

describe('regression rules: the grammar', () => {
  it('reads relative and absolute margins and the direction', () => {
    expect(parseRegressionRule('total.p99 > +10%')).toMatchObject({ metric: 'total.p99', op: '>', margin: 0.1, relative: true, scope: {} });
    expect(parseRegressionRule('throughput < -5%')).toMatchObject({ metric: 'throughput', op: '<', margin: -0.05, relative: true });
    expect(parseRegressionRule('errors.rate > +0.01')).toMatchObject({ metric: 'errors.rate', op: '>', margin: 0.01, relative: false });
    expect(parseRegressionRule('  total.mean>2.5  ')).toMatchObject({ metric: 'total.mean', margin: 2.5, relative: false });
  });

  it('stream figures (issue 41): ttfe, gap and rtt mean/p50/p90/p99 and messages.rate are rules, in ms and msg/s; counts are not', () => {
    for (const of of ['ttfe', 'gap', 'rtt']) {
      for (const stat of ['mean', 'p50', 'p90', 'p99']) expect(parseRegressionRule(`${of}.${stat} > +10% phase=feed`)).toMatchObject({ metric: `${of}.${stat}`, op: '>', margin: 0.1, relative: true, scope: { phase: 'feed' } });
    }
    expect(parseRegressionRule('messages.rate < -20%')).toMatchObject({ metric: 'messages.rate', op: '<', margin: -0.2, relative: true });
    expect(parseRegressionRule('rtt.p99 > +25')).toMatchObject({ metric: 'rtt.p99', margin: 25, relative: false });
    expect([ruleUnit('gap.p99'), ruleUnit('messages.rate')]).toEqual(['ms', 'msg/s']);
    expect(ruleValueText({ metric: 'messages.rate' }, 40)).toBe('40.0 msg/s');
    expect(ruleChangeText({ metric: 'messages.rate', relative: false }, -4.5)).toBe('-4.5 msg/s');
    // a count is the scenario's, not a measure with noise; a max has no interval
    for (const text of ['streams.count > +10%', 'messages.count > +10%', 'gap.max > +10%', 'rtt.p95 > +10%']) expect(() => parseRegressionRule(text), text).toThrow(/unknown metric/);
  });

  it('scopes: bare words and double-quoted values with escapes, each key once', () => {
    expect(parseRegressionRule('total.p50 > +20% server=single phase=steady').scope).toEqual({ server: 'single', phase: 'steady' });
    expect(parseRegressionRule('total.p50 > +20% server="thread-pool · cores 2" endpoint="GET /a \\"b\\" \\\\c"').scope).toEqual({ server: 'thread-pool · cores 2', endpoint: 'GET /a "b" \\c' });
  });

  it('refuses what is not a rule, naming the rule and the reason', () => {
    const cases: [string, RegExp][] = [
      ['total.p99 >= +10%', /not a rule|unexpected/],
      ['latency.p99 > +10%', /unknown metric 'latency.p99'/],
      ['total.p999 > +10%', /unknown metric/],
      ['total.p99 > ten%', /not a rule/],
      ['total.p99 > +10%%', /unexpected "%"/],
      ['total.p99 > +10% host=a', /unknown scope 'host'/],
      ['total.p99 > +10% phase=a phase=b', /phase= given twice/],
      ['total.p99 > +10% phase="open', /unclosed quote/],
      ['total.p99 > +10% phase=', /needs a value/],
      ['total.p99 > +10% phase="a"b', /expected a space/],
      ['total.p99 > +10% steady', /expected server=, phase= or endpoint=/],
      ['', /not a rule/],
      [`total.p99 > +10% phase="${'x'.repeat(600)}"`, /longer than 500 characters/],
    ];
    for (const [text, why] of cases) {
      let caught: unknown;
      try {
        parseRegressionRule(text);
      } catch (err) {
        caught = err;
      }
      expect(caught, text).toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
      expect((caught as Error).message, text).toMatch(why);
      expect((caught as Error).message, text).toMatch(/^--fail-on "/);
    }
    expect(() => parseRegressionRules(Array(MAX_RULES + 1).fill('throughput < -5%'))).toThrow(/at most 50/);
  });

  it('fails only when the interval lies wholly past the margin and past no change', () => {
    const up = parseRegressionRule('total.p99 > +10%');
    expect(intervalFails(up, { low: 0.11, high: 0.5 })).toBe(true);
    expect(intervalFails(up, { low: 0.09, high: 0.5 })).toBe(false); // the change may be within the margin
    expect(intervalFails(up, { low: -0.2, high: 3 })).toBe(false); // the noise is wider than the change
    const down = parseRegressionRule('throughput < -5%');
    expect(intervalFails(down, { low: -0.4, high: -0.06 })).toBe(true);
    expect(intervalFails(down, { low: -0.4, high: -0.04 })).toBe(false);
    // a margin on the wrong side of zero still needs a real change: beyond no change at all
    const loose = parseRegressionRule('total.p99 > -10%');
    expect(intervalFails(loose, { low: -0.05, high: 0.05 })).toBe(false);
    expect(intervalFails(loose, { low: 0.01, high: 0.05 })).toBe(true);
  });
});
