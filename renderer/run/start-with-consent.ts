import type { CallResponse, LoadscopeApi, StartRequest } from '../../contract/api';

// Starting a run that needs consent (load outside this machine, an external server's command, or
// files read outside the scenario's folder): the engine refuses with LS_ERR_NEEDS_CONSENT and a
// message naming the host, the argv and cwd, or the files; the person is asked with exactly that
// text, and only a yes retries with that consent set. The engine stores the consent with the run.
// A scenario opened or typed in the UI has no folder, so every file it names is listed.

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
      if (consentCode(err) !== 'LS_ERR_NEEDS_CONSENT' || asked >= 3) throw err;
      const message = err instanceof Error ? err.message : String(err);
      // the flag the refusal names is the consent it asks for
      const flag = /--allow-(remote|commands|files)$/.exec(message)?.[1];
      if (flag === undefined) throw err;
      if (!confirm(`${message.replace(/; confirm (it|them) in the UI or pass --allow-\w+$/, '')}.\n\nAllow this for this run?`)) throw err;
      current = { ...current, ...(flag === 'remote' ? { allowRemote: true } : flag === 'commands' ? { allowCommands: true } : { allowFiles: true }) };
    }
  }
}
