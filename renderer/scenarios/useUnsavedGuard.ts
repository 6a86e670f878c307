import { useEffect } from 'react';

/**
 * Quitting or reloading with unsaved editor changes asks first: `beforeunload` in the browser; in
 * Electron the shell turns the same event into a dialog (electron/unsaved-changes.ts).
 */
export function useUnsavedGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // older Chromium (and Electron) still need returnValue set
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
