import type { CallResponse, LoadscopeApi, StartRequest } from '../../contract/api';

// Starting a run that needs consent (load outside this machine, or an external server's command):
// the engine refuses with LS_ERR_NEEDS_CONSENT and a message naming the host, or the argv and cwd;
// the person is asked with exactly that text, and only a yes retries with the consent set. The
// engine stores the consent with the run.

function consentCode(err: unknown): string | null {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : null;
}

export async function startWithConsent(
  api: Pick<LoadscopeApi, 'invoke'>,
  request: StartRequest,
  confirm: (question: string) => boolean,
): Promise<CallResponse<'runs:start'>> {
  let current = request;
  // at most one question per kind of consent
  for (let asked = 0; ; asked++) {
    try {
      return await api.invoke('runs:start', current);
    } catch (err) {
      if (consentCode(err) !== 'LS_ERR_NEEDS_CONSENT' || asked >= 2) throw err;
      const message = err instanceof Error ? err.message : String(err);
      const remote = message.includes('--allow-remote');
      if (!confirm(`${message.replace(/; confirm (it|them) in the UI or pass --allow-\w+$/, '')}.\n\nAllow this for this run?`)) throw err;
      current = remote ? { ...current, allowRemote: true } : { ...current, allowCommands: true };
    }
  }
}
