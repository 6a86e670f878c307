import { describe, expect, it } from 'vitest';
import { parseRoute, routeHash } from './useRoute';

// The Trends view's route carries a scenario name, which is the user's text: it must come back
// exactly, whatever it holds, and a hash that does not decode must not throw in the app.

describe('the trends route', () => {
  it('round-trips any scenario name as one hash segment', () => {
    for (const scenario of ['seed-004', 'a/b c', '100% <b>&</b> #1 ?x=1', '../history/3', 'ünï 🙂', 'x%2Fy']) {
      const hash = routeHash({ view: 'trends', scenario });
      expect(hash.startsWith('#/trends/')).toBe(true);
      expect(hash.slice('#/trends/'.length)).not.toMatch(/[/#?]/);
      expect(parseRoute(hash)).toEqual({ view: 'trends', scenario });
    }
  });

  it('a hash that does not decode, or names nothing, opens History', () => {
    expect(parseRoute('#/trends/%E0%A4%A')).toEqual({ view: 'history', runId: null });
    expect(parseRoute('#/trends/')).toEqual({ view: 'history', runId: null });
  });
});
