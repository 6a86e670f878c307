import { useCallback, useEffect, useState } from 'react';
import { profileOf, type Baseline } from '../../contract/baselines';
import type { RunStatus } from '../../contract/results';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

// The pin that makes a run its scenario's baseline (per quick/full profile), in History's rows and
// on a run's page: the engine keeps the baselines (baselines:*), `loadscope run --baseline` and CI
// judge new runs against them (docs/ci.md).

export interface PinnedBaselines {
  /** the baseline a run belongs to (pinned itself, or a run of its pinned group), if any */
  of: (run: { id: number; scenarioName: string; quick: boolean }) => Baseline | undefined;
  reload: () => void;
  error: string | null;
}

export function usePinnedBaselines(): PinnedBaselines {
  const api = useApi();
  const [list, setList] = useState<Baseline[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    let live = true;
    api.invoke('baselines:list', {}).then(
      (b) => live && (setList(b), setError(null)),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, tick]);
  const of = useCallback(
    (run: { id: number; scenarioName: string; quick: boolean }) => list.find((b) => b.scenarioName === run.scenarioName && b.profile === profileOf(run.quick) && b.runIds.includes(run.id)),
    [list],
  );
  return { of, reload, error };
}

export interface BaselinePinProps {
  run: { id: number; scenarioName: string; quick: boolean; status: RunStatus };
  baselines: PinnedBaselines;
  /** 'row': History's compact star; 'page': a run page's button */
  look: 'row' | 'page';
  onError: (message: string) => void;
}

export function BaselinePin({ run, baselines, look, onError }: BaselinePinProps) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const pinned = baselines.of(run);
  const profile = profileOf(run.quick);
  const act = (call: () => Promise<unknown>, what: string) => {
    setBusy(true);
    call().then(
      () => {
        setBusy(false);
        baselines.reload();
      },
      (err: unknown) => {
        setBusy(false);
        onError(`could not ${what}: ${errorMessage(err)}`);
      },
    );
  };
  const pin = () => act(() => api.invoke('baselines:set', { runId: run.id }), `pin run #${run.id} as the baseline`);
  const unpin = () => act(() => api.invoke('baselines:clear', { scenarioName: run.scenarioName, profile }), `unpin the baseline of ${run.scenarioName}`);
  const title = pinned
    ? `the baseline of ${run.scenarioName} (${profile})${pinned.runIds.length > 1 ? `, with its group of ${pinned.runIds.length} runs` : ''}: \`loadscope run ${run.scenarioName}${run.quick ? ' --quick' : ''} --baseline\` judges new runs against it. Click to unpin`
    : run.status === 'completed'
      ? `pin as the baseline of ${run.scenarioName} (${profile}), replacing the one pinned now`
      : 'only a completed run can be a baseline';
  const common = { type: 'button' as const, title, 'aria-pressed': pinned !== undefined, disabled: busy || (!pinned && run.status !== 'completed'), onClick: pinned ? unpin : pin, 'data-testid': 'baseline-pin', 'data-pinned': pinned ? 'yes' : 'no' };
  if (look === 'row') {
    return (
      <button {...common} className={`btn-link small baseline-pin ${pinned ? 'pinned' : ''}`} aria-label={pinned ? `unpin run ${run.id} as the baseline` : `pin run ${run.id} as the baseline`}>
        {pinned ? '★ baseline' : '☆'}
      </button>
    );
  }
  return (
    <button {...common} className={`btn baseline-pin ${pinned ? 'pinned' : ''}`}>
      {pinned ? '★ Baseline' : '☆ Pin as baseline'}
    </button>
  );
}
