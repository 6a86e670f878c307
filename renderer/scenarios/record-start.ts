import type { CallResponse, LoadscopeApi } from '../../contract/api';

// Starting a recording at a URL outside this machine: the engine refuses with LS_ERR_NEEDS_CONSENT
// naming the host (the journey it makes sends load there), the person is asked with that text, and
// only a yes retries with allowRemote, as a run's remote target is asked (run/start-with-consent.ts).

const isConsentRefusal = (err: unknown): boolean => typeof err === 'object' && err !== null && 'code' in err && err.code === 'LS_ERR_NEEDS_CONSENT';

export async function startRecording(api: Pick<LoadscopeApi, 'invoke'>, url: string, confirm: (question: string) => boolean): Promise<CallResponse<'record:start'>> {
  try {
    return await api.invoke('record:start', { url });
  } catch (err) {
    if (!isConsentRefusal(err)) throw err;
    const message = err instanceof Error ? err.message : String(err);
    if (!confirm(`${message.replace(/; confirm it in the UI or pass --allow-remote$/, '')}.\n\nRecord it anyway?`)) throw err;
    return api.invoke('record:start', { url, allowRemote: true });
  }
}
