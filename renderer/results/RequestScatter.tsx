import { useEffect, useState } from 'react';
import { requestTimeName } from '../../contract/engine-figures';
import { cellTitle } from '../../contract/cells';
import type { CellInfo, RunEngine, TargetResult } from '../../contract/results';
import { ScatterChart, type ScatterSet } from '../charts/ScatterChart';
import { colorAt } from '../charts/theme';
import { useApi } from '../ui/ApiContext';
import { count, errorMessage } from '../ui/format';
import { ErrorBox, Panel, Toggle } from '../ui/widgets';

/** Points drawn in all; each server run gets an equal share. */
const SCATTER_CAP = 20_000;

interface Loaded {
  sets: ScatterSet[];
  shown: number;
  total: number;
}

/** The per-request scatter (seed 004's plots), loaded from the store once the run has ended. */
export function RequestScatter({ runId, targets, engine, cells = [] }: { runId: number; targets: readonly TargetResult[]; engine: RunEngine; cells?: readonly CellInfo[] }) {
  const api = useApi();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [log, setLog] = useState(false);

  useEffect(() => {
    let live = true;
    const limit = Math.max(1000, Math.floor(SCATTER_CAP / Math.max(targets.length, 1)));
    Promise.all(targets.map((t) => api.invoke('runs:requests', { runId, targetId: t.id, limit }))).then(
      (answers) => {
        if (!live) return;
        const sets = answers.map((a, i): ScatterSet => ({ name: targets[i]!.name, title: cellTitle(targets[i]!.label, cells, targets[i]!.cellIndex), color: colorAt(i), points: a.points }));
        setLoaded({ sets, shown: answers.reduce((n, a) => n + a.points.length, 0), total: answers.reduce((n, a) => n + a.total, 0) });
      },
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, runId, targets]);

  // the cap is stated either way, so a reader knows when the picture is a sample
  const note =
    loaded === null
      ? 'loading requests…'
      : loaded.shown < loaded.total
        ? `${count(loaded.shown)} of ${count(loaded.total)} requests, evenly sampled (cap ${count(SCATTER_CAP)})`
        : `all ${count(loaded.total)} requests (sampled above ${count(SCATTER_CAP)})`;
  return (
    <Panel title={<>Every request <span className="muted">{note}</span></>} actions={<Toggle checked={log} onChange={setLog} label="log scale" />} testId="request-scatter">
      <ErrorBox message={error} />
      <ScatterChart sets={loaded?.sets ?? []} log={log} testId="scatter-chart" timeName={requestTimeName(engine)} />
    </Panel>
  );
}
