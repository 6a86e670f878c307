import { describe, expect, it } from 'vitest';
import type { LoadscopeApi } from '../../contract/api';
import { LoadscopeError } from '../../contract/errors';
import { startRecording } from './record-start';

// Recording at a URL outside this machine from the UI, against an engine stand-in that refuses as the
// real one does (engine/record/record-target.ts): the person is asked with the engine's own words
// naming the host, "no" starts nothing, "yes" starts it once with the consent; any other refusal is
// passed on without a question.

function fakeApi(seen: unknown[], refusal = 'LS_ERR_NEEDS_CONSENT'): Pick<LoadscopeApi, 'invoke'> {
  return {
    invoke: (async (_name: string, request: { url: string; allowRemote?: boolean }) => {
      seen.push(request);
      if (refusal !== 'LS_ERR_NEEDS_CONSENT') throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'record takes an http(s) URL, not "file:"');
      if (!request.allowRemote) throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', 'the journey this recording makes sends load outside this machine, to 10.1.2.3; confirm it in the UI or pass --allow-remote');
      return { url: request.url, headless: false, notes: [] };
    }) as LoadscopeApi['invoke'],
  };
}

describe('starting a recording from the UI', () => {
  it('a host outside this machine: asked naming the host; yes starts it once with the consent', async () => {
    const seen: unknown[] = [];
    const questions: string[] = [];
    await startRecording(fakeApi(seen), 'http://10.1.2.3/', (q) => (questions.push(q), true));
    expect(questions).toEqual(['the journey this recording makes sends load outside this machine, to 10.1.2.3.\n\nRecord it anyway?']);
    expect(seen).toEqual([{ url: 'http://10.1.2.3/' }, { url: 'http://10.1.2.3/', allowRemote: true }]);
  });

  it('a host outside this machine, and the person says no: nothing is started, the refusal stands', async () => {
    const seen: unknown[] = [];
    await expect(startRecording(fakeApi(seen), 'http://10.1.2.3/', () => false)).rejects.toMatchObject({ code: 'LS_ERR_NEEDS_CONSENT' });
    expect(seen).toHaveLength(1);
  });

  it('a refusal that is not about consent: passed on, nobody asked', async () => {
    const questions: string[] = [];
    await expect(startRecording(fakeApi([], 'other'), 'file:///etc/shadow', (q) => (questions.push(q), true))).rejects.toThrow('record takes an http(s) URL');
    expect(questions).toEqual([]);
  });
});
