import { describe, expect, it } from 'vitest';
import { Scenario } from '../../contract/scenario';
import type { Validation } from '../scenarios/useValidation';
import { outlineSource } from './outline-source';

// The Run view's outline takes its sizes from the engine's answer, never from the text while the
// engine is asked (with quick on, the text's own sizes are the wrong ones).

const phase = (count: number) => ({ name: 'load', executor: 'closed', users: 4, count, requests: [{ path: '/' }] });
const written = Scenario.parse({ name: 'x', servers: [{ architecture: 'single' }], phases: [phase(1000)], quick: { 'phases[0].count': 10 } });
const answered = Scenario.parse({ name: 'x', servers: [{ architecture: 'single' }], phases: [phase(10)] });
const done = (cells: number, quick = true): Validation => ({ state: 'done', result: { ok: true, scenario: answered, cells: Array.from({ length: cells }, (_, index) => ({ index, label: `c${index}`, params: {} })), plan: { quick, cells: [] }, quickProfile: '1,000 requests -> 10' } });

describe('outlineSource', () => {
  it("outlines the engine's answer, with its sizes and cell count", () => {
    const o = outlineSource(written, done(2));
    expect(o).toMatchObject({ state: 'ready', sizes: 'quick', cells: 2 });
    expect(o.state === 'ready' && o.scenario.phases[0]).toMatchObject({ count: 10 });
    // the engine ran it without the profile (asked full, or the scenario has none): full sizes, said so
    expect(outlineSource(written, done(1, false))).toMatchObject({ state: 'ready', sizes: 'full' });
  });

  it("shows no sizes while the engine is asked, rather than the text's own", () => {
    expect(outlineSource(written, { state: 'checking' })).toEqual({ state: 'pending' });
    expect(outlineSource(written, { state: 'empty' })).toEqual({ state: 'pending' });
  });

  it('names the first issue when the engine refuses it, and says the sizes are as written when it cannot be asked', () => {
    const refused: Validation = { state: 'done', result: { ok: false, issues: [{ path: 'quick', message: 'with the quick profile applied, phases[0].count: too small' }] } };
    expect(outlineSource(written, refused)).toEqual({ state: 'invalid', message: 'quick: with the quick profile applied, phases[0].count: too small' });
    expect(outlineSource(written, { state: 'failed', message: 'host gone' })).toEqual({ state: 'unresolved', scenario: written, message: 'host gone' });
  });
});
