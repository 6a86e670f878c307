import { describe, expect, it } from 'vitest';
import { offeredText } from './search.js';
import { stepName, stepOffered } from './steps.js';

describe('an offered load in words', () => {
  it("says '1 user', '8 users' and '400 req/s', and reads step names of either form back", () => {
    expect(offeredText('users', 1)).toBe('1 user');
    expect(offeredText('users', 8)).toBe('8 users');
    expect(offeredText('rate', 400)).toBe('400 req/s');
    expect(stepName('users', 1)).toBe('1 user');
    // runs stored before this rule named the step '1 users'
    for (const name of ['1 user', '1 users']) expect(stepOffered('users', name)).toBe(1);
    expect(stepOffered('rate', stepName('rate', 12.5))).toBe(12.5);
  });
});
