import { useEffect, useState } from 'react';
import type { ValidationResult } from '../../contract/api';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

export type Validation = { state: 'empty' } | { state: 'checking' } | { state: 'done'; result: ValidationResult } | { state: 'failed'; message: string };

/** Validates the editor's text with the engine's own schema, 300 ms after the last keystroke. */
export function useValidation(text: string): Validation {
  const api = useApi();
  const [v, setV] = useState<{ text: string; value: Validation }>({ text: '', value: { state: 'empty' } });
  useEffect(() => {
    if (text.trim() === '') return;
    let live = true;
    const timer = setTimeout(() => {
      api.invoke('scenarios:validate', { text }).then(
        (result) => live && setV({ text, value: { state: 'done', result } }),
        (err: unknown) => live && setV({ text, value: { state: 'failed', message: errorMessage(err) } }),
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, text]);
  if (text.trim() === '') return { state: 'empty' };
  return v.text === text ? v.value : { state: 'checking' };
}
