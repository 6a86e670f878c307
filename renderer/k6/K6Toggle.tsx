import { MAX_RUN_INSTANCES } from '../../contract/instances';
import type { RunEngine } from '../../contract/results';
import { useK6Status } from './useK6Status';

interface K6ToggleProps {
  engine: RunEngine;
  onEngine: (e: RunEngine) => void;
  /** k6 processes at once (`--instances`), each with its execution segment */
  instances: number;
  onInstances: (n: number) => void;
  disabled: boolean;
}

/** "run with k6": shown where a k6 binary is installed; sends the load with k6 instead of the driver, in N processes if asked. */
export function K6Toggle({ engine, onEngine, instances, onInstances, disabled }: K6ToggleProps) {
  const status = useK6Status();
  if (status === null || !status.available) return null;
  return (
    <span className="k6-choice">
      <label className="toggle" title={`send the load with k6 ${status.version ?? ''} instead of Loadscope's driver (k6 measures from send time)`}>
        <input type="checkbox" checked={engine === 'k6'} onChange={(e) => onEngine(e.target.checked ? 'k6' : 'native')} disabled={disabled} data-testid="k6-toggle" />
        <span className="toggle-track" aria-hidden />
        run with k6
      </label>
      {engine === 'k6' && (
        <label className="k6-instances" title={`k6 processes at once, each with its share of the load (its execution segment); figures are merged, thresholds judged on the merge. 1 to ${MAX_RUN_INSTANCES}.`}>
          in
          <select value={instances} onChange={(e) => onInstances(Number(e.target.value))} disabled={disabled} data-testid="k6-instances">
            {Array.from({ length: MAX_RUN_INSTANCES }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          {instances === 1 ? 'process' : 'processes'}
        </label>
      )}
    </span>
  );
}
