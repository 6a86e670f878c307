import { describe, expect, it } from 'vitest';
import type { LoadscopeApi } from '../../contract/api';
import { LoadscopeError } from '../../contract/errors';
import { startWithConsent } from './start-with-consent';

// The UI's consent flow against an engine stand-in that refuses like the real one (prepare-run.ts).
function fakeApi(seen: unknown[]): Pick<LoadscopeApi, 'invoke'> {
  return {
    invoke: (async (_name: string, request: { allowRemote?: boolean; allowCommands?: boolean }) => {
      seen.push(request);
      if (!request.allowRemote) throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', 'this scenario sends load outside this machine, to 10.1.2.3; confirm it in the UI or pass --allow-remote');
      if (!request.allowCommands) throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', 'this scenario runs commands on this machine: ["./srv"] in /home/x; confirm them in the UI or pass --allow-commands');
      return { runId: 3 };
    }) as LoadscopeApi['invoke'],
  };
}

describe('startWithConsent', () => {
  it('asks naming the host, then the argv and cwd, and retries with the consent given', async () => {
    const seen: unknown[] = [];
    const questions: string[] = [];
    const result = await startWithConsent(fakeApi(seen), { scenario: { text: '{}' }, quick: false, set: {} }, (q) => (questions.push(q), true));
    expect(result).toEqual({ runId: 3 });
    expect(questions[0]).toContain('to 10.1.2.3');
    expect(questions[1]).toContain('["./srv"] in /home/x');
    expect(seen.at(-1)).toMatchObject({ allowRemote: true, allowCommands: true });
  });

  it('starts nothing when the person says no', async () => {
    const seen: unknown[] = [];
    await expect(startWithConsent(fakeApi(seen), { scenario: { text: '{}' }, quick: false, set: {} }, () => false)).rejects.toMatchObject({ code: 'LS_ERR_NEEDS_CONSENT' });
    expect(seen).toHaveLength(1);
  });

  it('asks listing the files read outside the scenario folder, and retries with allowFiles', async () => {
    const seen: { allowFiles?: boolean }[] = [];
    const questions: string[] = [];
    const api: Pick<LoadscopeApi, 'invoke'> = {
      invoke: (async (_name: string, request: { allowFiles?: boolean }) => {
        seen.push(request);
        if (!request.allowFiles) throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', 'this scenario reads files outside its own folder: "/etc/shadow"; confirm them in the UI or pass --allow-files');
        return { runId: 4 };
      }) as LoadscopeApi['invoke'],
    };
    await expect(startWithConsent(api, { scenario: { text: '{}' }, quick: false, set: {} }, (q) => (questions.push(q), true))).resolves.toEqual({ runId: 4 });
    expect(questions).toEqual(['this scenario reads files outside its own folder: "/etc/shadow".\n\nAllow this for this run?']);
    expect(seen).toEqual([expect.not.objectContaining({ allowFiles: true }), expect.objectContaining({ allowFiles: true })]);
  });
});
