import { describe, expect, it } from 'vitest';
import { notRunByLoadscope, notSampledNote, unsampledServers, type SampledTarget } from './server-samples.js';

// The one answer to "does this server run have CPU and memory samples?" (issue 36): an external
// target Loadscope attached to has none, and every view says so instead of drawing empty frames.
// Live, an external target Loadscope starts by its command has no sample for its first half second:
// the answer waits for a window or the end, so its charts do not flicker to the sentence and back.

const target = (over: Partial<SampledTarget>): SampledTarget => ({ architecture: 'external', state: 'running', samples: [], windows: [], ...over });

describe('which server runs Loadscope has no process samples for', () => {
  it('an external target with windows and no sample, live or ended: not run by Loadscope', () => {
    expect(notRunByLoadscope(target({ windows: [{}] }))).toBe(true);
    expect(notRunByLoadscope(target({ state: 'completed' }))).toBe(true);
    expect(notRunByLoadscope(target({ state: 'failed' }))).toBe(true);
  });

  it('an external target still starting (no window yet), one with samples, a bundled server, an unknown one: not judged so', () => {
    expect(notRunByLoadscope(target({}))).toBe(false);
    expect(notRunByLoadscope(target({ state: 'pending' }))).toBe(false);
    expect(notRunByLoadscope(target({ samples: [{}], windows: [{}] }))).toBe(false);
    expect(notRunByLoadscope(target({ architecture: 'single', windows: [{}], state: 'completed' }))).toBe(false);
    expect(notRunByLoadscope(target({ architecture: undefined, windows: [{}] }))).toBe(false);
  });

  it('a run of one such server and a run of several: one sentence each, naming the servers beside sampled ones', () => {
    const mine = { ...target({ windows: [{}] }), name: 'mine' };
    const bundled = { ...target({ architecture: 'single', samples: [{}], windows: [{}] }), name: 'single' };
    expect(unsampledServers([mine], (t) => t.name)).toEqual({ names: ['mine'], all: true });
    expect(unsampledServers([bundled, mine], (t) => t.name)).toEqual({ names: ['mine'], all: false });
    expect(unsampledServers([bundled], (t) => t.name)).toEqual({ names: [], all: false });
    expect(notSampledNote(['mine'], true)).toMatch(/^Loadscope does not run this server .* no CPU or memory samples for it;/);
    expect(notSampledNote(['mine'], false)).toBe('Loadscope does not run mine (external targets, already running), so it has no CPU or memory samples for them; the charts show the others.');
  });
});
