import { describe, expect, it } from 'vitest';
import type { Finding } from '../../contract/diagnosis';
import { evidenceArea } from './evidence-highlight';

// Which time range a finding shades on the charts, from its evidence as the engine sent it: a range
// in ms becomes seconds on the charts' axis, named by the rule and where it was read; evidence
// without a usable range (the whole run, reversed or not a number) shades nothing rather than a
// wrong place.

const finding = (evidence: Finding['evidence']): Finding => ({ rule: 'client-queueing', kind: 'finding', text: 't', evidence, confidence: 'high', wouldChange: 'w', next: 'n' });
const place = { targetId: 3, server: 'single', phaseIndex: 1, phase: 'capped' };

describe("a finding's shade on the time charts", () => {
  it('evidence from 1,500 to 5,400 ms of a phase: a shade from 1.5 to 5.4 s, named by the rule, server and phase', () => {
    expect(evidenceArea(finding({ ...place, figures: [], range: { fromMs: 1500, toMs: 5400 } }))).toEqual({ label: 'client-queueing: single · phase capped', fromSec: 1.5, toSec: 5.4 });
  });

  it('an endpoint in the evidence: named in the label too', () => {
    expect(evidenceArea(finding({ ...place, endpoint: 'POST /login', figures: [], range: { fromMs: 0, toMs: 250 } }))?.label).toBe('client-queueing: single · phase capped · endpoint POST /login');
  });

  it('evidence of the whole run (no range): no shade', () => {
    expect(evidenceArea(finding({ ...place, figures: [] }))).toBeNull();
  });

  it('a range with no place: named by the rule alone', () => {
    expect(evidenceArea(finding({ figures: [], range: { fromMs: 0, toMs: 1000 } }))?.label).toBe('client-queueing');
  });

  it('a reversed range, or one that is not a number: no shade, never one in the wrong place', () => {
    expect(evidenceArea(finding({ ...place, figures: [], range: { fromMs: 5400, toMs: 1500 } }))).toBeNull();
    expect(evidenceArea(finding({ ...place, figures: [], range: { fromMs: Number.NaN, toMs: 1500 } }))).toBeNull();
    expect(evidenceArea(finding({ ...place, figures: [], range: { fromMs: 0, toMs: Number.POSITIVE_INFINITY } }))).toBeNull();
  });
});
