import { useCallback, useRef, useState } from 'react';
import type { CallRequest } from '../../../contract/api';
import type { TryResult } from '../../../contract/try-once';
import { useApi } from '../../ui/ApiContext';
import { errorMessage } from '../../ui/format';
import { withConsent } from '../../ui/with-consent';

// The editor's "Try once" (issue 39): one user through the scenario as it stands, against its
// target, asking for consent as a run does; nothing is stored. A try started while one is shown
// replaces it; an answer that comes after its panel was closed or replaced is dropped.

export type TryRequest = CallRequest<'scenarios:try'>;

/** `done.seq`: which try this is, so the panel shows a new try's steps afresh (closed and open as they come) */
export type TryState = { phase: 'trying' } | { phase: 'done'; result: TryResult; seq: number } | { phase: 'failed'; message: string };

export function useTryOnce(): { state: TryState | null; start: (request: TryRequest) => void; close: () => void } {
  const api = useApi();
  const [state, setState] = useState<TryState | null>(null);
  const seq = useRef(0);
  const start = useCallback(
    (request: TryRequest) => {
      const mine = ++seq.current;
      setState({ phase: 'trying' });
      withConsent((r: TryRequest) => api.invoke('scenarios:try', r), request, (question) => window.confirm(question), 'this try').then(
        (result) => mine === seq.current && setState({ phase: 'done', result, seq: mine }),
        (err: unknown) => mine === seq.current && setState({ phase: 'failed', message: errorMessage(err) }),
      );
    },
    [api],
  );
  const close = useCallback(() => {
    seq.current++;
    setState(null);
  }, []);
  return { state, start, close };
}
