import { useEffect, useRef } from 'react';
import type { EventPayload, LoadscopeApi } from '../../contract/api';

export interface MenuHandlers {
  openScenario: (fileName: string, text: string) => void;
  start: () => void;
  cancel: () => void;
  exportRun: () => void;
}

/**
 * The desktop shell's application menu (File: open scenario, export; Run: start, cancel) arrives as
 * `ui:menu` events; the browser host never sends them. Handlers are read through a ref so the
 * subscription is made once, yet always acts on the current state.
 */
export function useMenuActions(api: LoadscopeApi, handlers: MenuHandlers): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(
    () =>
      api.on('ui:menu', (m: EventPayload<'ui:menu'>) => {
        const h = ref.current;
        switch (m.action) {
          case 'open-scenario':
            if (m.text !== undefined) h.openScenario((m.path ?? 'scenario.json').split(/[\\/]/).pop() ?? 'scenario.json', m.text);
            break;
          case 'run-start':
            h.start();
            break;
          case 'run-cancel':
            h.cancel();
            break;
          case 'export':
            h.exportRun();
            break;
        }
      }),
    [api],
  );
}
