import type { RunEngine } from '../../contract/results';
import { useK6Status } from './useK6Status';

/** "run with k6": shown where a k6 binary is installed; sends the load with k6 instead of the driver. */
export function K6Toggle({ engine, onEngine, disabled }: { engine: RunEngine; onEngine: (e: RunEngine) => void; disabled: boolean }) {
  const status = useK6Status();
  if (status === null || !status.available) return null;
  return (
    <label className="toggle" title={`send the load with k6 ${status.version ?? ''} instead of Loadscope's driver (k6 measures from send time)`}>
      <input type="checkbox" checked={engine === 'k6'} onChange={(e) => onEngine(e.target.checked ? 'k6' : 'native')} disabled={disabled} data-testid="k6-toggle" />
      <span className="toggle-track" aria-hidden />
      run with k6
    </label>
  );
}
