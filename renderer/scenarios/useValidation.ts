import { useEffect, useState } from 'react';
import type { ValidationResult } from '../../contract/api';
import type { KeptFileRef } from '../../contract/kept-files';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

export type Validation = { state: 'empty' } | { state: 'checking' } | { state: 'done'; result: ValidationResult } | { state: 'failed'; message: string };

/**
 * Validates the text with the engine's own validator (quick profile applied when asked), 300 ms after
 * the last change. `files`: the draft's kept data files, read as a run would (a relative data path
 * none of them has is an issue at its data[i].file).
 */
export function useValidation(text: string, quick = false, files?: readonly KeptFileRef[]): Validation {
  const api = useApi();
  const filesKey = files === undefined ? '' : files.map((f) => `${f.name}:${f.hash}`).join(',');
  const key = `${quick ? 'q' : 'f'}:${filesKey}:${text}`;
  const [v, setV] = useState<{ key: string; value: Validation }>({ key: '', value: { state: 'empty' } });
  useEffect(() => {
    if (text.trim() === '') return;
    let live = true;
    const timer = setTimeout(() => {
      api.invoke('scenarios:validate', { text, quick, ...(files === undefined ? {} : { files: [...files] }) }).then(
        (result) => live && setV({ key, value: { state: 'done', result } }),
        (err: unknown) => live && setV({ key, value: { state: 'failed', message: errorMessage(err) } }),
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // files are in the key (by name and hash): a new array of the same files checks nothing again
  }, [api, text, quick, key]);
  if (text.trim() === '') return { state: 'empty' };
  return v.key === key ? v.value : { state: 'checking' };
}
