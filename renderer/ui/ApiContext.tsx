import { createContext, useContext, type ReactNode } from 'react';
import type { LoadscopeApi } from '../../contract/api';

// The host's API reaches views through context, not a module import, so every view works against
// any LoadscopeApi (Electron's preload, the browser host's transport, or a test double).
const ApiContext = createContext<LoadscopeApi | null>(null);

export function ApiProvider({ api, children }: { api: LoadscopeApi; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): LoadscopeApi {
  const api = useContext(ApiContext);
  if (api === null) throw new Error('useApi outside <ApiProvider>');
  return api;
}
