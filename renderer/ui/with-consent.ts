// A call that may need consent (a run's start, a try): the engine refuses with LS_ERR_NEEDS_CONSENT
// and a message naming the host, the argv and cwd, or the files (engine/run/consent.ts); the person
// is asked with exactly that text, and only a yes retries with that consent set. A scenario opened
// or typed in the UI has no folder, so every file it names is listed.

/** The consent flags a call carries (runs:start and scenarios:try alike). */
export interface ConsentFlags {
  allowRemote?: boolean;
  allowCommands?: boolean;
  allowFiles?: boolean;
}

function consentCode(err: unknown): string | null {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : null;
}

/** `call(request)`, asking for each consent the engine says it needs ("Allow this for `forWhat`?"). */
export async function withConsent<R extends ConsentFlags, T>(call: (request: R) => Promise<T>, request: R, confirm: (question: string) => boolean, forWhat = 'this run'): Promise<T> {
  let current = request;
  // at most one question per kind of consent
  for (let asked = 0; ; asked++) {
    try {
      return await call(current);
    } catch (err) {
      if (consentCode(err) !== 'LS_ERR_NEEDS_CONSENT' || asked >= 3) throw err;
      const message = err instanceof Error ? err.message : String(err);
      // the flag the refusal names is the consent it asks for
      const flag = /--allow-(remote|commands|files)$/.exec(message)?.[1];
      if (flag === undefined) throw err;
      if (!confirm(`${message.replace(/; confirm (it|them) in the UI or pass --allow-\w+$/, '')}.\n\nAllow this for ${forWhat}?`)) throw err;
      current = { ...current, ...(flag === 'remote' ? { allowRemote: true } : flag === 'commands' ? { allowCommands: true } : { allowFiles: true }) };
    }
  }
}
