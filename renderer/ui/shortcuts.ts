import { useEffect, useRef } from 'react';

// The workbench's keyboard shortcuts, one list for both hosts: the desktop shell's menu binds the same
// keys (electron/menu.ts accelerators) and sends them as ui:menu events, so in Electron the page leaves
// those keys to the menu (or an action would run twice) and handles only "?"; in a browser the page
// handles them all.

export type ShortcutAction = 'run-start' | 'run-cancel' | 'open-scenario' | 'export' | 'help';

export interface Shortcut {
  action: ShortcutAction;
  /** the key with Ctrl (Cmd on a Mac), or alone for "?" */
  key: string;
  withMod: boolean;
  what: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'run-start', key: 'Enter', withMod: true, what: 'Start the scenario picked in the Run view' },
  { action: 'run-cancel', key: '.', withMod: true, what: 'Cancel the run in progress' },
  { action: 'open-scenario', key: 'O', withMod: true, what: 'Open a scenario file' },
  { action: 'export', key: 'E', withMod: true, what: 'Export the run on screen (CSV of its requests)' },
  { action: 'help', key: '?', withMod: false, what: 'Show or hide this list' },
];

const isMac = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform);

/** How a shortcut is written on this machine: "Ctrl+Enter", "⌘+Enter", "?". */
export function keysOf(s: Shortcut): string {
  return s.withMod ? `${isMac() ? '⌘' : 'Ctrl'}+${s.key}` : s.key;
}

/** The shortcut a key press means, if any. */
export function shortcutOf(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): Shortcut | undefined {
  if (e.altKey) return undefined;
  const mod = e.ctrlKey || e.metaKey;
  return SHORTCUTS.find((s) => s.withMod === mod && s.key.toLowerCase() === e.key.toLowerCase());
}

function typingIn(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/**
 * Calls the handler of each shortcut pressed. `menuHasKeys`: the desktop menu binds the Ctrl keys, so
 * only "?" is handled here. "?" typed into a field is text, not a shortcut.
 */
export function useShortcuts(handlers: Record<ShortcutAction, () => void>, menuHasKeys: boolean): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = shortcutOf(e);
      if (s === undefined || e.repeat) return;
      if (s.withMod ? menuHasKeys : typingIn(e.target)) return;
      // the browser's own Ctrl+O / Ctrl+E (open file, search) would take the key otherwise
      e.preventDefault();
      ref.current[s.action]();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuHasKeys]);
}
