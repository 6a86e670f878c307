import { useEffect, useState } from 'react';
import type { ScenarioListItem } from '../../contract/api';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

/** The built-in scenarios, loaded once per mount. */
export function useScenarioList(): { list: ScenarioListItem[] | null; error: string | null } {
  const api = useApi();
  const [list, setList] = useState<ScenarioListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.invoke('scenarios:list', {}).then(
      (items) => live && setList(items),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api]);
  return { list, error };
}

/** A built-in scenario's text, or null while it loads. */
export function useScenarioText(name: string | null): { text: string | null; error: string | null } {
  const api = useApi();
  const [state, setState] = useState<{ name: string | null; text: string | null; error: string | null }>({ name: null, text: null, error: null });
  useEffect(() => {
    if (name === null) return;
    let live = true;
    api.invoke('scenarios:get', { name }).then(
      (r) => live && setState({ name, text: r.text, error: null }),
      (err: unknown) => live && setState({ name, text: null, error: errorMessage(err) }),
    );
    return () => {
      live = false;
    };
  }, [api, name]);
  return state.name === name ? { text: state.text, error: state.error } : { text: null, error: null };
}
