import { useEffect, useState } from 'react';
import type { CallResponse } from '../../contract/api';
import { useApi } from '../ui/ApiContext';

export type K6Status = CallResponse<'k6:status'>;

/** Whether the engine can run scenarios with k6 (asked once per mount). */
export function useK6Status(): K6Status | null {
  const api = useApi();
  const [status, setStatus] = useState<K6Status | null>(null);
  useEffect(() => {
    let live = true;
    api.invoke('k6:status', {}).then(
      (s) => live && setStatus(s),
      () => live && setStatus({ available: false, version: null, hint: 'the engine did not say whether k6 is installed' }),
    );
    return () => {
      live = false;
    };
  }, [api]);
  return status;
}
