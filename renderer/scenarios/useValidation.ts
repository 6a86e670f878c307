import { useEffect, useState } from 'react';
import type { ValidationResult } from '../../contract/api';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

export type Validation = { state: 'empty' } | { state: 'checking' } | { state: 'done'; result: ValidationResult } | { state: 'failed'; message: string };

/** Validates the text with the engine's own validator (quick profile applied when asked), 300 ms after the last change. */
export function useValidation(text: string, quick = false): Validation {
  const api = useApi();
  const key = `${quick ? 'q' : 'f'}:${text}`;
  const [v, setV] = useState<{ key: string; value: Validation }>({ key: '', value: { state: 'empty' } });
  useEffect(() => {
    if (text.trim() === '') return;
    let live = true;
    const timer = setTimeout(() => {
      api.invoke('scenarios:validate', { text, quick }).then(
        (result) => live && setV({ key, value: { state: 'done', result } }),
        (err: unknown) => live && setV({ key, value: { state: 'failed', message: errorMessage(err) } }),
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, text, quick, key]);
  if (text.trim() === '') return { state: 'empty' };
  return v.key === key ? v.value : { state: 'checking' };
}
