import { describe, expect, it } from 'vitest';
import { quickSetting } from './quick-setting';

// The quick toggle never claims quick where the engine runs the scenario full (issue 36), and says
// what quick shortens where it does.

describe('quickSetting', () => {
  it('a scenario without a quick profile: off and unavailable, whatever was asked, saying why', () => {
    expect(quickSetting(true, null)).toMatchObject({ on: false, available: false, label: 'quick: no profile' });
    expect(quickSetting(true, null).title).toMatch(/no quick profile .*so it always runs full/);
  });

  it('a scenario with one: as asked, naming what it shortens', () => {
    expect(quickSetting(true, 'phases 10 s -> 2 s, 3 servers -> 1')).toMatchObject({ on: true, available: true, label: 'quick: phases 10 s -> 2 s, 3 servers -> 1' });
    expect(quickSetting(false, 'phases 10 s -> 2 s')).toMatchObject({ on: false, available: true });
  });

  it('before the engine has answered: as asked, in plain words', () => {
    expect(quickSetting(true, undefined)).toMatchObject({ on: true, available: true, label: 'quick' });
  });
});
