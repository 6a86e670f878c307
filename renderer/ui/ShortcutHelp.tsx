import { useEffect, useRef } from 'react';
import { keysOf, SHORTCUTS } from './shortcuts';
import './shortcuts.css';

/** The list of keyboard shortcuts ("?"), closed by Escape, "?" again, the button or a click outside. */
export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="shortcut-backdrop" onClick={onClose}>
      <div className="shortcut-help" role="dialog" aria-modal="true" aria-labelledby="shortcut-title" data-testid="shortcut-help" onClick={(e) => e.stopPropagation()}>
        <div className="shortcut-head">
          <h2 id="shortcut-title">Keyboard shortcuts</h2>
          <button ref={close} type="button" className="btn" onClick={onClose}>
            Close
          </button>
        </div>
        <table className="data compact">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.action} data-action={s.action}>
                <td className="left">
                  <kbd>{keysOf(s)}</kbd>
                </td>
                <td className="left">{s.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted small">The same keys work in the desktop app (its menus list them) and in the browser.</p>
      </div>
    </div>
  );
}
