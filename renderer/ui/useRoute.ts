import { useCallback, useEffect, useState } from 'react';

// The view lives in the URL's hash (#/history/12, #/compare/3,4), so a reload keeps it and the
// browser host's ?token=... query string is never touched.

export type Route =
  | { view: 'run' }
  | { view: 'history'; runId: number | null }
  | { view: 'compare'; runIds: number[] }
  | { view: 'scenarios' }
  | { view: 'trends'; scenario: string };

export function parseRoute(hash: string): Route {
  const [view, arg] = hash.replace(/^#\/?/, '').split('/');
  const ids = (arg ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  switch (view) {
    case 'history':
      return { view: 'history', runId: ids[0] ?? null };
    case 'compare':
      return { view: 'compare', runIds: ids };
    case 'scenarios':
      return { view: 'scenarios' };
    case 'trends': {
      // a scenario name is URI-encoded in the hash: one segment whatever it holds
      const raw = hash.replace(/^#\/?trends\//, '');
      try {
        const scenario = decodeURIComponent(raw);
        return scenario === '' ? { view: 'history', runId: null } : { view: 'trends', scenario };
      } catch {
        return { view: 'history', runId: null };
      }
    }
    default:
      return { view: 'run' };
  }
}

export function routeHash(route: Route): string {
  switch (route.view) {
    case 'history':
      return route.runId === null ? '#/history' : `#/history/${route.runId}`;
    case 'compare':
      return `#/compare/${route.runIds.join(',')}`;
    case 'trends':
      return `#/trends/${encodeURIComponent(route.scenario)}`;
    default:
      return `#/${route.view}`;
  }
}

export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const go = useCallback((next: Route) => {
    const hash = routeHash(next);
    if (window.location.hash !== hash) window.location.hash = hash;
    setRoute(next);
  }, []);
  return [route, go];
}
