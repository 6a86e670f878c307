import type { CallResponse, LoadscopeApi, StartRequest } from '../../contract/api';
import { withConsent } from '../ui/with-consent';

// Starting a run that needs consent (load outside this machine, an external server's command, or
// files read outside the scenario's folder): asked as every call that needs it asks (ui/with-consent.ts);
// the engine stores the consent with the run.

export function startWithConsent(api: Pick<LoadscopeApi, 'invoke'>, request: StartRequest, confirm: (question: string) => boolean): Promise<CallResponse<'runs:start'>> {
  return withConsent((r: StartRequest) => api.invoke('runs:start', r), request, confirm);
}
