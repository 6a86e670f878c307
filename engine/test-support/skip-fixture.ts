import { describe, expect, it } from 'vitest';
import { skipNow, skipUnless } from './skip.js';

// Not a test of the suite (no .test.ts): the file skipped-reporter.test.ts runs in a vitest of its
// own, with one test of each way a test can run or not.

describe('fixture', () => {
  it('runs', () => {
    expect(1).toBe(1);
  });
  it('is skipped before it starts', skipUnless(false, 'reason A'), () => {
    throw new Error('ran');
  });
  it('runs where its condition holds', skipUnless(true, 'never shown'), () => {
    expect(2).toBe(2);
  });
  describe('a group', skipUnless(false, 'reason B'), () => {
    it('one', () => {
      throw new Error('ran');
    });
    it('two', () => {
      throw new Error('ran');
    });
  });
  it('is skipped once running', (ctx) => {
    skipNow(ctx, 'reason C');
  });
  it('is skipped with no reason', { skip: true }, () => {
    throw new Error('ran');
  });
});
