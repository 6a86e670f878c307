import { useCallback, useEffect, useState } from 'react';
import type { ScenarioListItem } from '../../contract/api';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

/** The built-in and library scenarios; `refresh` reloads them (after a save, import, rename, delete). */
export function useScenarioList(): { list: ScenarioListItem[] | null; error: string | null; refresh: () => void } {
  const api = useApi();
  const [list, setList] = useState<ScenarioListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let live = true;
    api.invoke('scenarios:list', {}).then(
      (items) => live && setList(items),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, generation]);
  const refresh = useCallback(() => setGeneration((g) => g + 1), []);
  return { list, error, refresh };
}

/** A scenario's text by name (built-in or library), or null while it loads. */
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
