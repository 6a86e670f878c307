import { quickSetting, type QuickProfileWord } from './quick-setting';

/** The quick toggle of the Run view and the editor: says what quick shortens, disabled (with why) where the scenario has no quick profile. */
export function QuickToggle({ quick, onQuick, profile, disabled = false }: { quick: boolean; onQuick: (q: boolean) => void; profile: QuickProfileWord; disabled?: boolean }) {
  const s = quickSetting(quick, profile);
  return (
    <label className={`toggle quick-toggle ${s.available ? '' : 'unavailable'}`} title={s.title} data-testid="quick-setting" data-on={s.on ? 'true' : 'false'} data-available={s.available ? 'true' : 'false'}>
      <input type="checkbox" checked={s.on} onChange={(e) => onQuick(e.target.checked)} disabled={disabled || !s.available} data-testid="quick-toggle" />
      <span className="toggle-track" aria-hidden />
      <span className="quick-label">{s.label}</span>
    </label>
  );
}
